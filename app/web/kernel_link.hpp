// A kernel of the reader's own carried in a link: its text compressed (raw deflate, zlib) and written
// in base64url, which an address's fragment takes as it is, so that "my kernel, this step, this race"
// is one link that opens the page there, with nothing uploaded (docs/web.md). The fragment, not the
// query, because a browser never sends it to the server: the kernel stays between the two readers.
//
//   index.html?n=64&schedule=reverse&step=3#file=my_scan.cu&kernel=XY1Rb9owEH...
//
// Raw deflate, because every platform reads it with what it ships (zlib's inflate with -15 window
// bits, a browser's DecompressionStream("deflate-raw"), Python's zlib.decompress(data, -15)).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace sv::web {

// The longest kernel part of a link: with the page's address and query it stays under 8 KB, which
// mail, chat and forum software keep whole. About 16 KB of a typical kernel's text compresses to this
// (the project's own kernels, 0.9 to 2.3 KB of text, take 620 to 1,131 characters).
inline constexpr std::size_t kMaxLinkKernelChars = 8000;

// The text, compressed and in base64url (no padding): any length; the caller checks the limit.
std::string encode_kernel(std::string_view text);

// The other way. Throws std::invalid_argument with one line naming the problem: a character outside
// base64url, data that is not deflate's, a stream cut short (the link not copied whole), text
// longer than a kernel may be.
std::string decode_kernel(std::string_view encoded);

// The file name a link gives a kernel: `name` with every character but letters, digits, '.', '-' and
// '_' made '_', at most 64 of them, ending in ".cu" ("kernel.cu" for an empty name).
std::string link_file_name(std::string_view name);

// The fragment ("#file=NAME&kernel=DATA") that carries the kernel `text` saved as `name`; or, when
// it is longer than kMaxLinkKernelChars, an empty fragment and in `refused` the line that says so.
struct KernelFragment {
  std::string fragment;
  std::string refused;
};
KernelFragment kernel_fragment(std::string_view name, std::string_view text);

// A link's kernel, read from the address's fragment (with or without its '#'); both empty when the
// fragment carries none. Throws std::invalid_argument with one line ("link: ...") for a key it does
// not know or a kernel it cannot decode.
struct LinkedKernel {
  std::string name;
  std::string text;
};
LinkedKernel kernel_from_fragment(std::string_view fragment);

}  // namespace sv::web
