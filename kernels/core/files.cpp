// Reading a whole file; writing a whole output: regular files by temporary file and rename,
// everything else in place.
#include "core/files.hpp"

#include <fcntl.h>
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

namespace sv {

namespace fs = std::filesystem;

std::optional<std::string> read_whole_file(const fs::path& path) {
  std::error_code ec;
  std::ifstream in(path, std::ios::binary);
  if (!in || fs::is_directory(path, ec)) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
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
  for (int attempt = 0; fd < 0; ++attempt) {
    tmp = folder / (stem + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(serial++));
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);  // 0666: the umask decides
    if (fd < 0 && (errno != EEXIST || attempt == 100)) fail(name, errno);
  }
  int err = write_all(fd, bytes);
  if (!err && replaced && ::fchmod(fd, replaced->st_mode & 07777) != 0) err = errno;
  if (!err && ::fsync(fd) != 0) err = errno;
  if (::close(fd) != 0 && !err) err = errno;
  if (!err && ::rename(tmp.c_str(), target.c_str()) != 0) err = errno;
  if (err) {
    ::unlink(tmp.c_str());
    fail(name, err);
  }
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
