// SIGPIPE ignored, and standard output checked once at exit (app/standard_output.hpp).
#include "standard_output.hpp"

#include <fcntl.h>
#include <poll.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

namespace sv {

namespace {

bool status_only = false;

// Why standard output failed when errno no longer says (a stream that failed earlier keeps only its
// bad state): a pipe without a reader polls as an error, a closed descriptor fails fcntl.
std::string why_stdout_failed(int err) {
  if (err) return std::strerror(err);
  if (::fcntl(1, F_GETFD) < 0) return std::strerror(EBADF);
  pollfd p{1, POLLOUT, 0};
  if (::poll(&p, 1, 0) == 1 && (p.revents & POLLERR)) return std::strerror(EPIPE);
  return "write error";
}

}  // namespace

void ignore_sigpipe() { std::signal(SIGPIPE, SIG_IGN); }

void mark_status_only() { status_only = true; }

int checked_stdout(int code) {
  errno = 0;
  if (std::cout.flush() && std::fflush(stdout) == 0) return code;
  if (status_only) return code;
  std::cerr << "scanviz: cannot write standard output: " << why_stdout_failed(errno) << "\n";
  return 2;
}

}  // namespace sv
