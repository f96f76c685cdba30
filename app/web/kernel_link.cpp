// A kernel in a link's fragment: raw deflate and base64url (app/web/kernel_link.hpp).
#include "web/kernel_link.hpp"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>

#include "cuda_subset/lexer.hpp"

namespace sv::web {

namespace {

constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::invalid_argument bad(const std::string& what) { return std::invalid_argument("link: the kernel in the address " + what); }

std::string base64url(const unsigned char* bytes, std::size_t size) {
  std::string out;
  out.reserve((size * 4 + 2) / 3);
  for (std::size_t i = 0; i < size; i += 3) {
    const std::size_t left = size - i;
    const std::uint32_t word = (std::uint32_t{bytes[i]} << 16) | (left > 1 ? std::uint32_t{bytes[i + 1]} << 8 : 0) |
                               (left > 2 ? std::uint32_t{bytes[i + 2]} : 0);
    for (std::size_t k = 0; k < std::min<std::size_t>(left, 3) + 1; ++k) out += kAlphabet[(word >> (18 - 6 * k)) & 63];
  }
  return out;
}

std::string from_base64url(std::string_view text) {
  std::array<int, 256> value{};
  value.fill(-1);
  for (std::size_t i = 0; i < kAlphabet.size(); ++i) value[static_cast<unsigned char>(kAlphabet[i])] = static_cast<int>(i);
  std::string out;
  out.reserve(text.size() * 3 / 4);
  std::uint32_t word = 0;
  int bits = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const int v = value[static_cast<unsigned char>(text[i])];
    if (v < 0)
      throw bad("is damaged: character " + std::to_string(i + 1) + " is not one a link's kernel is written with");
    word = (word << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((word >> bits) & 0xff);
    }
  }
  if (text.size() % 4 == 1) throw bad("is cut short: the link was not copied whole");  // no base64 text is this long
  return out;
}

}  // namespace

std::string encode_kernel(std::string_view text) {
  z_stream z{};
  // Raw deflate (negative window bits): no zlib header or checksum, the smallest link.
  if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("zlib: cannot start compressing");
  std::string packed(deflateBound(&z, static_cast<uLong>(text.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(packed.data());
  z.avail_out = static_cast<uInt>(packed.size());
  const int status = deflate(&z, Z_FINISH);
  packed.resize(z.total_out);
  deflateEnd(&z);
  if (status != Z_STREAM_END) throw std::runtime_error("zlib: cannot compress the kernel");
  return base64url(reinterpret_cast<const unsigned char*>(packed.data()), packed.size());
}

std::string decode_kernel(std::string_view encoded) {
  std::string packed = from_base64url(encoded);
  z_stream z{};
  if (inflateInit2(&z, -15) != Z_OK) throw std::runtime_error("zlib: cannot start decompressing");
  // One byte over the limit tells a kernel too long from one exactly as long as a kernel may be.
  std::string text(cuda::kMaxSourceBytes + 1, '\0');
  z.next_in = reinterpret_cast<Bytef*>(packed.data());
  z.avail_in = static_cast<uInt>(packed.size());
  z.next_out = reinterpret_cast<Bytef*>(text.data());
  z.avail_out = static_cast<uInt>(text.size());
  const int status = inflate(&z, Z_FINISH);
  const std::string message = z.msg ? z.msg : "";
  const std::size_t size = z.total_out;
  const std::size_t unread = z.avail_in;
  inflateEnd(&z);
  if (status == Z_DATA_ERROR) throw bad("is damaged (" + message + "): copy the whole link again");
  if (size > cuda::kMaxSourceBytes)
    throw bad("is longer than the " + std::to_string(cuda::kMaxSourceBytes) + " bytes a kernel may have");
  if (status != Z_STREAM_END) throw bad("is cut short: the link was not copied whole");
  if (unread != 0) throw bad("is damaged: " + std::to_string(unread) + " bytes follow its end");
  text.resize(size);
  return text;
}

std::string link_file_name(std::string_view name) {
  std::string out;
  for (const char c : name.substr(0, 64)) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
    out += plain ? c : '_';
  }
  if (out.empty() || out == "." || out == "..") out = "kernel";
  if (out.size() < 3 || out.compare(out.size() - 3, 3, ".cu") != 0) out = out.substr(0, 61) + ".cu";
  return out;
}

KernelFragment kernel_fragment(std::string_view name, std::string_view text) {
  const std::string data = encode_kernel(text);
  if (data.size() > kMaxLinkKernelChars)
    return {"", "this kernel is too long for a link (" + std::to_string(data.size()) + " characters compressed, " +
                    std::to_string(kMaxLinkKernelChars) + " at most): File > Save kernel downloads it to send instead"};
  return {"#file=" + link_file_name(name) + "&kernel=" + data, ""};
}

LinkedKernel kernel_from_fragment(std::string_view fragment) {
  if (!fragment.empty() && fragment.front() == '#') fragment.remove_prefix(1);
  LinkedKernel out;
  bool has_name = false, has_text = false;
  while (!fragment.empty()) {
    const std::size_t amp = fragment.find('&');
    const std::string_view pair = fragment.substr(0, amp);
    fragment = amp == std::string_view::npos ? std::string_view() : fragment.substr(amp + 1);
    if (pair.empty()) continue;
    const std::size_t eq = pair.find('=');
    const std::string_view key = pair.substr(0, eq);
    const std::string_view value = eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1);
    if (key == "file") {
      out.name = link_file_name(value);
      has_name = true;
    } else if (key == "kernel") {
      if (value.size() > kMaxLinkKernelChars)
        throw bad("is " + std::to_string(value.size()) + " characters long, over the " + std::to_string(kMaxLinkKernelChars) +
                  " a link carries");
      out.text = decode_kernel(value);
      has_text = true;
    } else {
      throw std::invalid_argument("link: unknown key '" + std::string(key) + "' after '#' (file, kernel)");
    }
  }
  if (has_name && !has_text) throw std::invalid_argument("link: file=" + out.name + " comes without its kernel= (copy the whole link)");
  if (has_text && !has_name) out.name = link_file_name("");
  return out;
}

}  // namespace sv::web
