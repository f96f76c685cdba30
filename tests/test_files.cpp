// The one writer, in process: regular files replaced whole, devices, FIFOs, sockets and open streams
// written in place and never replaced, links followed, and one-line errors with nothing left behind.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>

#include "core/files.hpp"
#include "run_command.hpp"

using sv::write_file_atomically;
using sv_test::slurp;
using sv_test::TempDir;
namespace fs = std::filesystem;

namespace {

// The message write_file_atomically throws for `path`, or "" when it does not throw.
std::string write_error(const fs::path& path, std::string_view bytes) {
  try {
    write_file_atomically(path, bytes);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

mode_t type_of(const fs::path& path) {
  struct stat st {};
  REQUIRE(::lstat(path.c_str(), &st) == 0);
  return st.st_mode & S_IFMT;
}

}  // namespace

TEST_CASE("files: a new regular file is written whole, and a replaced one keeps its permission bits") {
  TempDir d;
  write_file_atomically(d.path / "a.txt", "first\n");
  CHECK(slurp(d.path / "a.txt") == "first\n");
  const mode_t mask = ::umask(0);
  ::umask(mask);
  CHECK(static_cast<mode_t>(fs::status(d.path / "a.txt").permissions()) == (0666 & ~mask));
  fs::permissions(d.path / "a.txt", fs::perms::owner_read | fs::perms::owner_write);
  const std::vector<unsigned char> bytes = {0x89, 'P', 'N', 'G', 0, 0xff};
  write_file_atomically(d.path / "a.txt", std::span<const unsigned char>(bytes));
  CHECK(slurp(d.path / "a.txt") == std::string("\x89PNG\0\xff", 6));
  CHECK(fs::status(d.path / "a.txt").permissions() == (fs::perms::owner_read | fs::perms::owner_write));
  CHECK(d.files() == std::vector<std::string>{"a.txt"});
}

TEST_CASE("files: a missing folder or a folder in the way is one line naming the path, and leaves nothing") {
  TempDir d;
  CHECK(write_error(d.path / "none" / "a.txt", "x") == "cannot write " + (d.path / "none" / "a.txt").string() + ": No such file or directory");
  fs::create_directories(d.path / "occupied" / "inside");
  CHECK(write_error(d.path / "occupied", "x") == "cannot write " + (d.path / "occupied").string() + ": Is a directory");
  CHECK(fs::is_directory(d.path / "occupied" / "inside"));
  CHECK(d.files() == std::vector<std::string>{"occupied"});
}

TEST_CASE("files: /dev/full is an error, and stays the device") {
  CHECK(write_error("/dev/full", "text") == "cannot write /dev/full: No space left on device");
  CHECK(type_of("/dev/full") == S_IFCHR);
}

TEST_CASE("files: a FIFO is written in place for its reader, and stays a FIFO") {
  TempDir d;
  const fs::path fifo = d.path / "fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string got;
  std::thread reader([&] { got = slurp(fifo); });  // opening blocks until the writer opens
  const std::string text(200000, 'x');             // more than a pipe holds: the reader must drain it
  write_file_atomically(fifo, text);
  reader.join();
  CHECK(got == text);
  CHECK(type_of(fifo) == S_IFIFO);
  CHECK(d.files() == std::vector<std::string>{"fifo"});
}

TEST_CASE("files: a pipe whose reader has gone is the error Broken pipe, not a SIGPIPE") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  ::close(fds[0]);
  const std::string path = "/dev/fd/" + std::to_string(fds[1]);
  CHECK(write_error(path, "text") == "cannot write " + path + ": Broken pipe");
  ::close(fds[1]);
  CHECK(write_error("/dev/fd/" + std::to_string(fds[1]), "text") == "cannot write /dev/fd/" + std::to_string(fds[1]) + ": Bad file descriptor");
}

TEST_CASE("files: /dev/fd/N is the open descriptor, written as it is") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  write_file_atomically("/dev/fd/" + std::to_string(fds[1]), "through the pipe");
  ::close(fds[1]);
  char buf[64] = {};
  CHECK(::read(fds[0], buf, sizeof buf) == 16);
  CHECK(std::string(buf) == "through the pipe");
  ::close(fds[0]);
}

TEST_CASE("files: a socket is connected to and written, and stays a socket") {
  TempDir d;
  const fs::path path = d.path / "sock";
  const int listener = ::socket(AF_UNIX, SOCK_STREAM, 0);
  REQUIRE(listener >= 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
  REQUIRE(::bind(listener, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0);
  REQUIRE(::listen(listener, 1) == 0);
  std::string got;
  std::thread server([&] {
    const int peer = ::accept(listener, nullptr, nullptr);
    char buf[4096];
    for (ssize_t n; (n = ::read(peer, buf, sizeof buf)) > 0;) got.append(buf, static_cast<std::size_t>(n));
    ::close(peer);
  });
  write_file_atomically(path, "over the socket");
  server.join();
  ::close(listener);
  CHECK(got == "over the socket");
  CHECK(type_of(path) == S_IFSOCK);
}

TEST_CASE("files: a symbolic link is followed: the target gets the bytes and the link stays a link") {
  TempDir d;
  fs::create_directory(d.path / "sub");
  write_file_atomically(d.path / "sub" / "target.txt", "old");
  fs::create_symlink("sub/target.txt", d.path / "link");
  fs::create_symlink("link", d.path / "link-to-link");
  write_file_atomically(d.path / "link-to-link", "new");
  CHECK(slurp(d.path / "sub" / "target.txt") == "new");
  CHECK(type_of(d.path / "link") == S_IFLNK);
  CHECK(type_of(d.path / "link-to-link") == S_IFLNK);
  CHECK(d.files() == std::vector<std::string>{"link", "link-to-link", "sub"});

  // A link to a name that does not exist yet creates that name.
  fs::create_symlink("sub/made.txt", d.path / "dangling");
  write_file_atomically(d.path / "dangling", "made");
  CHECK(slurp(d.path / "sub" / "made.txt") == "made");
  CHECK(type_of(d.path / "dangling") == S_IFLNK);

  // A link to a device writes the device.
  fs::create_symlink("/dev/full", d.path / "full");
  CHECK(write_error(d.path / "full", "x") == "cannot write " + (d.path / "full").string() + ": No space left on device");
  CHECK(type_of(d.path / "full") == S_IFLNK);
  CHECK(type_of("/dev/full") == S_IFCHR);

  fs::create_symlink("loop-b", d.path / "loop-a");
  fs::create_symlink("loop-a", d.path / "loop-b");
  CHECK(write_error(d.path / "loop-a", "x") == "cannot write " + (d.path / "loop-a").string() + ": Too many levels of symbolic links");
  CHECK(type_of(d.path / "loop-a") == S_IFLNK);
}

TEST_CASE("files: the names of open streams") {
  CHECK(sv::stream_named("-") == 1);
  CHECK(sv::stream_named("/dev/stdout") == 1);
  CHECK(sv::stream_named("/dev/stderr") == 2);
  CHECK(sv::stream_named("/dev/fd/7") == 7);
  CHECK(sv::stream_named("/proc/self/fd/12") == 12);
  CHECK_FALSE(sv::stream_named("/dev/fd/"));
  CHECK_FALSE(sv::stream_named("/dev/fd/1x"));
  CHECK_FALSE(sv::stream_named("/dev/null"));
  CHECK_FALSE(sv::stream_named("./-"));
  CHECK(sv::output_name("-") == "standard output");
  CHECK(sv::output_name("./-") == "./-");
}
