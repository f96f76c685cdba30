// A kernel in a page's link (app/web/kernel_link.hpp): every kernel comes back from its link byte for
// byte, links made elsewhere (by hand, by Python's zlib) read, a damaged or cut link is one line, and
// a kernel over the limit is refused with the download offered.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>

#include "cuda_subset/lexer.hpp"
#include "web/kernel_link.hpp"

using namespace sv::web;
namespace fs = std::filesystem;

namespace {

std::string file_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The line decode_kernel throws for `encoded` ("" when it decodes).
std::string refusal(const std::string& encoded) {
  try {
    decode_kernel(encoded);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

bool is_base64url(const std::string& text) {
  return text.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") == std::string::npos;
}

}  // namespace

TEST_CASE("kernel link: every kernel the project ships, and seeded random bytes, come back from the link as they were") {
  int kernels = 0;
  for (const char* folder : {"assets/kernels", "kernels/block/cuda"}) {
    for (const auto& entry : fs::directory_iterator(fs::path(SCANVIZ_SOURCE_DIR) / folder)) {
      if (entry.path().extension() != ".cu") continue;
      const std::string text = file_text(entry.path());
      CAPTURE(entry.path().string());
      REQUIRE(!text.empty());
      const std::string encoded = encode_kernel(text);
      CHECK(is_base64url(encoded));
      CHECK(decode_kernel(encoded) == text);
      // Compressed, a kernel's link is shorter than its text (base64 alone would be 4/3 of it).
      CHECK(encoded.size() < text.size());
      const KernelFragment f = kernel_fragment(entry.path().filename().string(), text);
      CHECK(f.refused.empty());
      const LinkedKernel back = kernel_from_fragment(f.fragment);
      CHECK(back.name == entry.path().filename().string());
      CHECK(back.text == text);
      ++kernels;
    }
  }
  CHECK(kernels >= 14);
  std::mt19937 random(7);
  for (int length : {0, 1, 2, 3, 4, 5, 63, 64, 65, 255, 1000, 4097}) {
    std::string bytes(static_cast<std::size_t>(length), '\0');
    for (char& c : bytes) c = static_cast<char>(random() & 0xff);  // every byte value, NUL included
    CAPTURE(length);
    CHECK(decode_kernel(encode_kernel(bytes)) == bytes);
  }
}

TEST_CASE("kernel link: links made elsewhere read: a stored deflate block written by hand, Python's zlib, an empty kernel") {
  // 01: the final block, stored; 02 00 and fd ff: its length 2 and the complement; then "hi".
  CHECK(decode_kernel("AQIA_f9oaQ") == "hi");
  // base64.urlsafe_b64encode of zlib.compressobj(9, zlib.DEFLATED, -15)'s output, '=' removed.
  CHECK(decode_kernel("i49Pz8lPSsyJj1coy89MUShOTszTSMvJTyzRUqjQVKhWqIguyShKTUzxTKnQq4hV0LZVMNQzSLNWqOUCAA") ==
        "__global__ void scan(float* x) { x[threadIdx.x] += 1.0f; }\n");
  CHECK(decode_kernel("AwA").empty());
  const LinkedKernel k = kernel_from_fragment("#kernel=AQIA_f9oaQ");
  CHECK(k.name == "kernel.cu");
  CHECK(k.text == "hi");
  const LinkedKernel none = kernel_from_fragment("");
  CHECK((none.name.empty() && none.text.empty()));
  CHECK(kernel_from_fragment("#").text.empty());
}

TEST_CASE("kernel link: a damaged, cut or overlong link is one line naming the problem, never a wrong kernel") {
  const std::string good = encode_kernel(file_text(fs::path(SCANVIZ_SOURCE_DIR) / "assets/kernels/pmpp_kogge_stone_incorrect.cu"));
  const std::pair<std::string, const char*> bad[] = {
      {good.substr(0, 40), "is cut short: the link was not copied whole"},
      {good.substr(0, good.size() - 3), "cut short"},
      {good.substr(0, 4 * 7 + 1), "cut short"},  // a length no base64 text has
      {good + "AAAA", "bytes follow its end"},
      {"AQIA_f9oaQ%3D", "character 11 is not one a link's kernel is written with"},
      {"AQIA+f9oaQ", "character 5 is not one"},
      {"BwA", "is damaged (invalid block type): copy the whole link again"},  // block type 3, reserved
      {"", "cut short"},
  };
  for (const auto& [encoded, what] : bad) {
    CAPTURE(encoded);
    const std::string line = refusal(encoded);
    CHECK(line.rfind("link: the kernel in the address ", 0) == 0);
    CHECK(line.find(what) != std::string::npos);
    CHECK(line.find('\n') == std::string::npos);
  }
  // A small link that inflates past what a kernel may be is refused, not decompressed to the end.
  const std::string bomb = encode_kernel(std::string(sv::cuda::kMaxSourceBytes + 1, 'a'));
  CHECK(bomb.size() < 2000);
  CHECK(refusal(bomb).find("longer than the 262144 bytes a kernel may have") != std::string::npos);
  CHECK(refusal(encode_kernel(std::string(sv::cuda::kMaxSourceBytes, 'a'))).empty());
  // Seeded mutations of a good link: each decodes to some text or is one line; nothing else escapes.
  std::mt19937 random(11);
  int refused = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string mutated = good;
    const int edits = 1 + static_cast<int>(random() % 3);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = random() % mutated.size();
      switch (random() % 3) {
        case 0: mutated[at] = static_cast<char>(random() & 0x7f); break;
        case 1: mutated.erase(at, 1 + random() % 8); break;
        default: mutated.insert(at, 1, "AZaz09-_"[random() % 8]); break;
      }
      if (mutated.empty()) mutated = "A";
    }
    try {
      decode_kernel(mutated);
    } catch (const std::invalid_argument& e) {
      CHECK(std::string(e.what()).find('\n') == std::string::npos);
      ++refused;
    }
  }
  CHECK(refused > 1500);  // most damage is seen: deflate's codes leave little unused
}

TEST_CASE("kernel link: a kernel over the link's limit is refused with the download offered, and a fragment names only its file and kernel") {
  // Letters at random compress to about 6 bits each: 12,000 of them are over 8,000 characters of link.
  std::mt19937 random(3);
  std::string noise;
  for (int i = 0; i < 12000; ++i) noise += static_cast<char>('a' + random() % 26);
  const KernelFragment long_one = kernel_fragment("mine.cu", noise);
  CHECK(long_one.fragment.empty());
  CHECK(long_one.refused.find("this kernel is too long for a link") != std::string::npos);
  CHECK(long_one.refused.find("8000 at most): File > Save kernel downloads it") != std::string::npos);
  CHECK(encode_kernel(noise).size() > kMaxLinkKernelChars);
  // The same text cut to what fits is carried; a link's kernel over the limit is refused as it is read.
  const std::string fits = noise.substr(0, 5500);
  REQUIRE(encode_kernel(fits).size() <= kMaxLinkKernelChars);
  CHECK(kernel_from_fragment(kernel_fragment("mine.cu", fits).fragment).text == fits);
  const std::string over = "kernel=" + std::string(kMaxLinkKernelChars + 1, 'A');
  CHECK_THROWS_WITH_AS(kernel_from_fragment(over), doctest::Contains("characters long, over the 8000 a link carries"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(kernel_from_fragment("#file=a.cu&kernel=AwA&step=2"), "link: unknown key 'step' after '#' (file, kernel)",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(kernel_from_fragment("#file=a.cu"), "link: file=a.cu comes without its kernel= (copy the whole link)",
                       std::invalid_argument);
  // A link names a file, never a path: what the page saves it as stays in its own folder.
  CHECK(kernel_from_fragment("#file=../../etc/passwd&kernel=AwA").name == ".._.._etc_passwd.cu");
  CHECK(link_file_name("my scan.cu") == "my_scan.cu");
  CHECK(link_file_name("") == "kernel.cu");
  CHECK(link_file_name("..") == "kernel.cu");
  CHECK(link_file_name("scan") == "scan.cu");
  CHECK(link_file_name(std::string(100, 'x') + ".cu") == std::string(61, 'x') + ".cu");
}
