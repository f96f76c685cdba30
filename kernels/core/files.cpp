// Reading a whole file, up to a limit; writing a whole output: regular files by temporary file and rename,
// everything else in place.
#include "core/files.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>

#include "core/limits.hpp"

namespace sv {

namespace fs = std::filesystem;

namespace {

// Reads fd to its end, at most `limit` bytes; closes it unless it is standard input.
std::string read_open_file(int fd, std::uint64_t limit, std::string_view what, bool regular_only) {
  struct stat st {};
  const bool known = ::fstat(fd, &st) == 0;
  const bool regular = known && S_ISREG(st.st_mode);
  std::string text;
  int err = 0;
  if (known && S_ISDIR(st.st_mode)) err = EISDIR;
  else if (regular_only && !regular) err = EINVAL;
  else if (regular && static_cast<std::uint64_t>(st.st_size) > limit) err = EFBIG;
  if (!err && regular) text.reserve(static_cast<std::size_t>(st.st_size));
  for (char chunk[1 << 16]; !err;) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) err = errno;
    if (n <= 0) break;
    if (text.size() + static_cast<std::uint64_t>(n) > limit) err = EFBIG;
    else text.append(chunk, static_cast<std::size_t>(n));
  }
  if (fd != 0) ::close(fd);
  if (err == EFBIG) throw std::runtime_error("larger than " + size_text(limit) + ", the limit for " + std::string(what));
  if (err == EISDIR) throw std::runtime_error("is a directory");
  if (err == EINVAL) throw std::runtime_error("is not a regular file");
  if (err) throw std::runtime_error("cannot read: " + std::generic_category().message(err));
  return text;
}

int open_for_reading(const fs::path& path, int flags) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | flags);
  if (fd < 0) throw std::runtime_error("cannot open: " + std::generic_category().message(errno));
  return fd;
}

}  // namespace

std::string read_whole_file(const fs::path& path, std::uint64_t limit, std::string_view what) {
  const int fd = is_standard_stream(path) ? 0 : open_for_reading(path, 0);
  return read_open_file(fd, limit, what, false);
}

std::string read_regular_file(const fs::path& path, std::uint64_t limit, std::string_view what) {
  // Opened without waiting: a FIFO with no writer would block the open itself.
  return read_open_file(open_for_reading(path, O_NONBLOCK), limit, what, true);
}

namespace {

[[noreturn]] void fail(const std::string& name, const std::string& why) {
  throw std::runtime_error("cannot write " + name + ": " + why);
}
[[noreturn]] void fail(const std::string& name, int err) { fail(name, std::generic_category().message(err)); }

// While alive, SIGPIPE is ignored, so a pipe or socket whose reader has gone fails a write with EPIPE.
class SigpipeIgnored {
 public:
  SigpipeIgnored() {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    ::sigaction(SIGPIPE, &ignore, &previous_);
  }
  ~SigpipeIgnored() { ::sigaction(SIGPIPE, &previous_, nullptr); }
  SigpipeIgnored(const SigpipeIgnored&) = delete;
  SigpipeIgnored& operator=(const SigpipeIgnored&) = delete;

 private:
  struct sigaction previous_ {};
};

// While alive, SIGINT, SIGTERM and SIGHUP remove the temporary file being written before they end
// the process as they would have (the handler restores the default action and raises the signal
// again), so an interrupted write leaves neither a half-written file nor a temporary one. One write
// at a time holds the slot; the path is copied into static storage, as a handler may only read that.
class TemporaryFileGuard {
 public:
  static constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

  TemporaryFileGuard() {
    struct sigaction remove {};
    remove.sa_handler = on_signal;
    sigemptyset(&remove.sa_mask);
    for (std::size_t i = 0; i < std::size(kSignals); ++i) {
      ::sigaction(kSignals[i], nullptr, &previous_[i]);
      if (previous_[i].sa_handler != SIG_IGN) ::sigaction(kSignals[i], &remove, nullptr);  // nohup's SIG_IGN stays
    }
  }
  ~TemporaryFileGuard() {
    release();
    for (std::size_t i = 0; i < std::size(kSignals); ++i) ::sigaction(kSignals[i], &previous_[i], nullptr);
  }
  TemporaryFileGuard(const TemporaryFileGuard&) = delete;
  TemporaryFileGuard& operator=(const TemporaryFileGuard&) = delete;

  // Creates the file (O_EXCL) with the signals held back, so that none comes between its creation
  // and the handler knowing its name. Returns the descriptor, or -1 with errno set.
  int create(const fs::path& tmp) {
    sigset_t held, before;
    sigemptyset(&held);
    for (int sig : kSignals) sigaddset(&held, sig);
    ::pthread_sigmask(SIG_BLOCK, &held, &before);
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);  // 0666: the umask decides
    const int err = errno;
    if (fd >= 0 && tmp.native().size() < sizeof path_) {
      std::memcpy(path_, tmp.c_str(), tmp.native().size() + 1);
      armed_ = 1;
    }
    ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
    errno = err;
    return fd;
  }
  // The file was renamed or removed: nothing is left to remove.
  void release() { armed_ = 0; }

 private:
  static void on_signal(int sig) {
    if (armed_) ::unlink(path_);
    ::signal(sig, SIG_DFL);
    ::raise(sig);
  }
  static inline char path_[4096] = {};
  static inline volatile std::sig_atomic_t armed_ = 0;
  struct sigaction previous_[std::size(kSignals)] {};
};

// Returns 0, or the errno of the write that failed.
int write_all(int fd, std::string_view bytes) {
  const SigpipeIgnored sigpipe_ignored;
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return 0;
}

void write_open_stream(const std::string& name, int fd, std::string_view bytes) {
  if (::fcntl(fd, F_GETFD) < 0) fail(name, errno);
  std::cout.flush();  // what was printed before comes before the bytes
  std::fflush(stdout);
  if (const int err = write_all(fd, bytes)) fail(name, err);
}

// The name a chain of symbolic links ends at (which may not exist yet).
fs::path link_target(fs::path path, const std::string& name) {
  std::error_code ec;
  for (int hops = 0; fs::is_symlink(fs::symlink_status(path, ec)); ++hops) {
    if (hops == 40) fail(name, ELOOP);
    const fs::path next = fs::read_symlink(path, ec);
    if (ec) fail(name, ec.message());
    path = next.is_absolute() ? next : path.parent_path() / next;
  }
  return path;
}

void connect_and_write(const std::string& name, const fs::path& path, std::string_view bytes) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.native().size() >= sizeof address.sun_path) fail(name, ENAMETOOLONG);
  std::memcpy(address.sun_path, path.c_str(), path.native().size());
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) fail(name, errno);
  int err = ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0 ? 0 : errno;
  if (!err) err = write_all(fd, bytes);
  ::close(fd);
  if (err) fail(name, err);
}

// A file that exists and is not a regular one: written where it is, never replaced.
void write_in_place(const std::string& name, const fs::path& path, mode_t mode, std::string_view bytes) {
  if (S_ISDIR(mode)) fail(name, EISDIR);
  if (S_ISBLK(mode)) fail(name, "it is a block device (a disk), which scanviz does not write");
  if (S_ISSOCK(mode)) return connect_and_write(name, path, bytes);
  const int fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);  // no O_CREAT: it exists
  if (fd < 0) fail(name, errno);
  int err = write_all(fd, bytes);
  if (::close(fd) != 0 && !err) err = errno;
  if (err) fail(name, err);
}

// Flushes a folder's entries (the rename) to the disk; a failure here loses nothing already written.
void sync_folder(const fs::path& folder) {
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// A new name or a regular file: written whole beside it, then renamed over it.
void write_by_rename(const std::string& name, const fs::path& target, std::string_view bytes, const struct stat* replaced) {
  static std::atomic<unsigned> serial{0};
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const std::string stem = target.filename().string().substr(0, 200);  // room for the suffix in NAME_MAX
  fs::path tmp;
  int fd = -1;
  TemporaryFileGuard guard;
  for (int attempt = 0; fd < 0; ++attempt) {
    tmp = folder / (stem + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(serial++));
    fd = guard.create(tmp);
    if (fd < 0 && (errno != EEXIST || attempt == 100)) fail(name, errno);
  }
  int err = write_all(fd, bytes);
  if (!err && replaced && ::fchmod(fd, replaced->st_mode & 07777) != 0) err = errno;
  if (!err && ::fsync(fd) != 0) err = errno;
  if (::close(fd) != 0 && !err) err = errno;
  if (!err && ::rename(tmp.c_str(), target.c_str()) != 0) err = errno;
  if (err) ::unlink(tmp.c_str());
  guard.release();
  if (err) fail(name, err);
  sync_folder(folder);
}

}  // namespace

std::optional<int> stream_named(const fs::path& path) {
  const std::string& p = path.native();
  if (p == "-" || p == "/dev/stdout") return 1;
  if (p == "/dev/stderr") return 2;
  for (const std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (p.size() <= prefix.size() || p.size() > prefix.size() + 9 || p.compare(0, prefix.size(), prefix) != 0) continue;
    if (p.find_first_not_of("0123456789", prefix.size()) != std::string::npos) continue;
    return std::stoi(p.substr(prefix.size()));
  }
  return std::nullopt;
}

void write_file_atomically(const fs::path& path, std::string_view bytes) {
  const std::string name = output_name(path);
  if (path.empty()) fail("''", ENOENT);
  if (const std::optional<int> fd = stream_named(path)) return write_open_stream(name, *fd, bytes);
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {  // follows links: the type of what the bytes would reach
    if (S_ISREG(st.st_mode)) return write_by_rename(name, link_target(path, name), bytes, &st);
    return write_in_place(name, path, st.st_mode, bytes);
  }
  if (errno != ENOENT) fail(name, errno);
  write_by_rename(name, link_target(path, name), bytes, nullptr);
}

}  // namespace sv
