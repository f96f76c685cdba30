// The strict parse: nlohmann's DOM builder behind a SAX filter that keeps each open object's keys.
#include "trace/strict_json.hpp"

#include <set>
#include <utility>
#include <vector>

namespace sv {

namespace {

using nlohmann::json;

class StrictSax {
 public:
  StrictSax(json& root, std::size_t max_depth) : dom_(root), max_depth_(max_depth) {}

  bool null() { return value(dom_.null()); }
  bool boolean(bool v) { return value(dom_.boolean(v)); }
  bool number_integer(json::number_integer_t v) { return value(dom_.number_integer(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return value(dom_.number_unsigned(v)); }
  bool number_float(json::number_float_t v, const json::string_t& s) { return value(dom_.number_float(v, s)); }
  bool string(json::string_t& v) { return value(dom_.string(v)); }
  bool binary(json::binary_t& v) { return value(dom_.binary(v)); }

  bool start_object(std::size_t n) {
    open(true);
    return dom_.start_object(n);
  }
  bool key(json::string_t& k) {
    Frame& f = frames_.back();
    f.key = k;
    if (!f.keys.insert(k).second) throw StrictJsonError(path() + ": duplicate key (a key appears once in an object)");
    return dom_.key(k);
  }
  bool end_object() {
    frames_.pop_back();
    return value(dom_.end_object());
  }
  bool start_array(std::size_t n) {
    open(false);
    return dom_.start_array(n);
  }
  bool end_array() {
    frames_.pop_back();
    return value(dom_.end_array());
  }
  template <class Exception>
  bool parse_error(std::size_t position, const std::string& token, const Exception& e) {
    return dom_.parse_error(position, token, e);
  }

 private:
  struct Frame {
    bool object = false;
    std::size_t index = 0;     // arrays: the element being read
    std::string key;           // objects: the member being read
    std::set<std::string> keys;
  };

  void open(bool object) {
    if (frames_.size() >= max_depth_)
      throw StrictJsonError(path() + ": nested deeper than " + std::to_string(max_depth_) + " levels");
    frames_.push_back({object, 0, {}, {}});
  }
  // After a whole value: the enclosing array moves on to its next element.
  bool value(bool ok) {
    if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
    return ok;
  }
  // A key as a path names it: plain words as they are, anything else quoted and escaped, so that a
  // message stays one line.
  static std::string key_text(const std::string& k) {
    const bool plain = !k.empty() && k.size() <= 64 && k.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == std::string::npos;
    if (plain) return k;
    std::string quoted = json(k.substr(0, 40)).dump(-1, ' ', true, json::error_handler_t::replace);
    return "[" + quoted + "]";
  }
  std::string path() const {
    std::string out;
    for (const Frame& f : frames_) {
      if (!f.object) out += "[" + std::to_string(f.index) + "]";
      else if (!f.keys.empty()) {
        const std::string k = key_text(f.key);
        out += (out.empty() || k.front() == '[' ? "" : ".") + k;
      }
    }
    return out.empty() ? "(top level)" : out;
  }

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  std::size_t max_depth_;
  std::vector<Frame> frames_;
};

}  // namespace

json parse_strict_json(const std::string& text, std::size_t max_depth) {
  json root;
  StrictSax sax(root, max_depth);
  json::sax_parse(text, &sax);
  return root;
}

}  // namespace sv
