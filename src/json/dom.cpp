// json::View, json::Parser and the helpers of dom.hpp, over simdjson's DOM (simdjson_bridge.hpp).
#include "json/dom.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <unordered_set>
#include <utility>
#include <vector>

#include "json/rfc8259.hpp"
#include "json/simdjson_bridge.hpp"

namespace mcptriage::json {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;
using detail::Access;

// ---------------------------------------------------------------------------------------------
// Numbers simdjson could not hold (Parser::parse's second reading)

namespace {

/// Numbers replaced in a document: (tape index, text as written), by tape index.
using Replaced = std::vector<std::pair<std::size_t, std::string>>;

/// The documents that hold replaced numbers, so that a View (a document and a tape index) finds
/// a number's text. Empty but for such rare documents: the fast path is one atomic load.
std::atomic<std::size_t> g_replaced_documents{0};
std::mutex g_replaced_mutex;
std::vector<std::pair<const void*, const Replaced*>> g_replaced;

void register_replaced(const void* doc, const Replaced* numbers) {
  const std::lock_guard lock(g_replaced_mutex);
  g_replaced.emplace_back(doc, numbers);
  g_replaced_documents.store(g_replaced.size(), std::memory_order_release);
}

void unregister_replaced(const void* doc) {
  const std::lock_guard lock(g_replaced_mutex);
  std::erase_if(g_replaced, [doc](const auto& e) { return e.first == doc; });
  g_replaced_documents.store(g_replaced.size(), std::memory_order_release);
}

/// The text as written of a replaced number, else nullopt.
std::optional<std::string> replaced_text(const void* doc, std::size_t index) {
  if (g_replaced_documents.load(std::memory_order_acquire) == 0 || doc == nullptr) return std::nullopt;
  const std::lock_guard lock(g_replaced_mutex);
  for (const auto& [d, numbers] : g_replaced) {
    if (d != doc) continue;
    auto it = std::lower_bound(numbers->begin(), numbers->end(), index,
                               [](const auto& e, std::size_t i) { return e.first < i; });
    if (it != numbers->end() && it->first == index) return it->second;
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// View

std::optional<View> View::find(std::string_view key) const {
  object obj;
  if (Access::element(*this).get_object().get(obj) != simdjson::SUCCESS) return std::nullopt;
  element v;
  if (obj.at_key(key).get(v) != simdjson::SUCCESS) return std::nullopt;
  return Access::view(v);
}

std::string_view View::string_unchecked() const { return Access::tape(*this).get_string_view(); }

std::optional<std::string_view> View::string_at(std::string_view key) const {
  if (type_ != Type::object) return std::nullopt;
  auto v = find(key);
  if (!v || v->type_ != Type::string) return std::nullopt;
  return v->string_unchecked();
}

std::optional<bool> View::bool_at(std::string_view key) const {
  if (type_ != Type::object) return std::nullopt;
  auto v = find(key);
  if (!v) return std::nullopt;
  return v->boolean();
}

std::optional<bool> View::boolean() const {
  if (type_ != Type::boolean) return std::nullopt;
  bool b = false;
  if (Access::element(*this).get(b) != simdjson::SUCCESS) return std::nullopt;
  return b;
}

std::optional<std::int64_t> View::int64() const {
  if (!is_integer()) return std::nullopt;
  std::int64_t i = 0;
  if (Access::element(*this).get(i) != simdjson::SUCCESS) return std::nullopt;
  return i;
}

std::optional<std::uint64_t> View::uint64() const {
  if (!is_integer()) return std::nullopt;
  std::uint64_t u = 0;
  if (Access::element(*this).get(u) != simdjson::SUCCESS) return std::nullopt;
  return u;
}

std::optional<double> View::number() const {
  if (!is_number()) return std::nullopt;
  if (type_ == Type::float64) {
    // A replaced number: its value as written (beyond the double range: +-infinity).
    if (auto text = replaced_text(doc_, index_)) return std::strtod(text->c_str(), nullptr);
  }
  double d = 0;
  if (Access::element(*this).get(d) != simdjson::SUCCESS) return std::nullopt;
  return d;
}

std::size_t View::size() const {
  if (type_ == Type::array) {
    array a;
    if (Access::element(*this).get_array().get(a) == simdjson::SUCCESS) return a.size();
  } else if (type_ == Type::object) {
    object o;
    if (Access::element(*this).get_object().get(o) == simdjson::SUCCESS) return o.size();
  }
  return 0;
}

std::optional<View> View::at(std::size_t i) const {
  if (type_ != Type::array) return std::nullopt;
  array a;
  if (Access::element(*this).get_array().get(a) != simdjson::SUCCESS) return std::nullopt;
  element v;
  if (a.at(i).get(v) != simdjson::SUCCESS) return std::nullopt;
  return Access::view(v);
}

ItemRange View::items() const { return Access::items(*this); }
MemberRange View::members() const { return Access::members(*this); }

// Arrays and objects on the tape (simdjson's dom::array and dom::object iterators): an array's
// elements run from the index after its start to the index of its end; each element's successor
// is after_element(). An object's keys sit at those positions and each value right after its key.

ItemRange detail::Access::items(const View& v) noexcept {
  ItemRange r;
  if (v.type_ != Type::array) return r;
  const simdjson::internal::tape_ref t = tape(v);
  r.begin_ = item_at(v, v.index_ + 1);
  r.end_.position_ = t.after_element() - 1;
  return r;
}

MemberRange detail::Access::members(const View& v) noexcept {
  MemberRange r;
  if (v.type_ != Type::object) return r;
  const simdjson::internal::tape_ref t = tape(v);
  const std::size_t end = t.after_element() - 1;
  r.begin_.doc_ = r.end_.doc_ = v.doc_;
  r.begin_.end_ = r.end_.end_ = end;
  r.begin_.position_ = v.index_ + 1;
  r.end_.position_ = end;
  fill(r.begin_);
  return r;
}

ItemIterator& ItemIterator::operator++() {
  const simdjson::internal::tape_ref t = Access::tape(current_);
  position_ = t.after_element();
  current_ = Access::view(simdjson::internal::tape_ref(t.doc, position_));
  return *this;
}

MemberIterator& MemberIterator::operator++() {
  const simdjson::internal::tape_ref value(static_cast<const simdjson::dom::document*>(doc_), position_ + 1);
  position_ = value.after_element();
  Access::fill(*this);
  return *this;
}

// ---------------------------------------------------------------------------------------------
// Parsing

struct Parser::Impl {
  simdjson::dom::parser parser;
  std::size_t max_depth = kMaxDepth;
  Leniency leniency;
  Replaced replaced;
  bool registered = false;

  void forget_replaced() {
    if (registered) unregister_replaced(&parser.doc);
    registered = false;
    replaced.clear();
    leniency = {};
  }
};

simdjson::dom::parser& detail::Access::parser(Parser& p) noexcept { return p.impl_->parser; }

Parser::Parser() : impl_(std::make_unique<Impl>()) {}
Parser::Parser(std::size_t max_depth) : impl_(std::make_unique<Impl>()) {
  impl_->max_depth = std::clamp<std::size_t>(max_depth, 1, kMaxDepth);
}
Parser::~Parser() {
  if (impl_) impl_->forget_replaced();
}
Parser::Parser(Parser&&) noexcept = default;
Parser& Parser::operator=(Parser&&) noexcept = default;

std::size_t Parser::capacity() const { return impl_->parser.capacity(); }

const Leniency& Parser::leniency() const { return impl_->leniency; }

simdjson::simdjson_result<element> parse(simdjson::dom::parser& parser, std::string_view text, bool padded,
                                         std::size_t max_depth) {
  if (parser.capacity() > kKeptParserCapacity && text.size() <= kKeptParserCapacity) {
    parser = simdjson::dom::parser();  // gives back the large buffers (and the padded copy)
  }
  // A fresh parser has simdjson's default depth (kMaxDepth); parse() keeps whatever depth the
  // parser was allocated with when it grows.
  if (parser.max_depth() != max_depth) {
    if (auto err = parser.allocate(std::max<std::size_t>(text.size(), kPadding), max_depth)) return err;
  }
  return parser.parse(text.data(), text.size(), /*realloc_if_needed=*/!padded);
}

ParseError parse_error(simdjson::error_code err) noexcept {
  ParseError e;
  e.message = simdjson::error_message(err);
  switch (err) {
    case simdjson::EMPTY: e.fault = ParseFault::empty; break;
    case simdjson::UTF8_ERROR: e.fault = ParseFault::utf8; break;
    case simdjson::DEPTH_ERROR: e.fault = ParseFault::too_deep; break;
    case simdjson::CAPACITY:
    case simdjson::MEMALLOC: e.fault = ParseFault::too_large; break;
    case simdjson::TAPE_ERROR:
    case simdjson::INCOMPLETE_ARRAY_OR_OBJECT:
    case simdjson::UNCLOSED_STRING: e.fault = ParseFault::cut_short; break;
    default: e.fault = ParseFault::syntax; break;
  }
  return e;
}

std::expected<View, ParseError> Parser::parse(std::string_view text, bool padded) {
  Impl& impl = *impl_;
  if (impl.registered || impl.leniency.any()) impl.forget_replaced();
  element root;
  const auto err = json::parse(impl.parser, text, padded, impl.max_depth).get(root);
  if (err == simdjson::SUCCESS) return Access::view(root);
  if (err != simdjson::NUMBER_ERROR && err != simdjson::STRING_ERROR) return std::unexpected(parse_error(err));
  // RFC 8259 allows what simdjson 3.0.1 refuses: integers beyond 64 bits, numbers beyond the
  // double range (§6), escaped unpaired surrogates (§8.2). Read the text again by the grammar,
  // parse a copy with those rewritten, and remember the numbers' text by tape index.
  auto rewritten = rfc8259::rewrite(text, impl.max_depth);
  if (!rewritten) return std::unexpected(parse_error(err));
  if (json::parse(impl.parser, rewritten->text, /*padded=*/false, impl.max_depth).get(root) != simdjson::SUCCESS) {
    return std::unexpected(parse_error(err));  // something else is wrong too: simdjson's first word
  }
  const simdjson::dom::document& doc = impl.parser.doc;
  const std::size_t end = simdjson::internal::tape_ref(&doc, 0).matching_brace_index();  // the closing root
  std::size_t ordinal = 0;
  std::size_t next = 0;
  for (std::size_t i = 1; i < end && next < rewritten->numbers.size();) {
    const auto type = simdjson::internal::tape_ref(&doc, i).tape_ref_type();
    if (type == simdjson::internal::tape_type::INT64 || type == simdjson::internal::tape_type::UINT64 ||
        type == simdjson::internal::tape_type::DOUBLE) {
      if (rewritten->numbers[next].ordinal == ordinal) {
        impl.replaced.emplace_back(i, std::move(rewritten->numbers[next].original));
        ++next;
      }
      ++ordinal;
      i += 2;
    } else {
      ++i;
    }
  }
  impl.leniency = Leniency{rewritten->big_integers, rewritten->out_of_range, rewritten->lone_surrogates};
  if (!impl.replaced.empty()) {
    register_replaced(&doc, &impl.replaced);
    impl.registered = true;
  }
  return Access::view(root);
}

std::expected<View, ParseError> Parser::parse_string(const std::string& text) {
  return parse(std::string_view(text), text.capacity() - text.size() >= kPadding);
}

// ---------------------------------------------------------------------------------------------
// Helpers

std::optional<ExactNumber> exact_number(std::string_view token) {
  auto e = rfc8259::exact_number(token);
  if (!e) return std::nullopt;
  return ExactNumber{std::move(e->text), e->integer};
}

std::optional<ExactNumber> exact_number(View value) {
  switch (value.type()) {
    case Type::int64: return ExactNumber{std::to_string(*value.int64()), true};
    case Type::uint64: return ExactNumber{std::to_string(*value.uint64()), true};
    case Type::float64: {
      if (auto text = replaced_text(Access::tape(value).doc, Access::tape(value).json_index)) return exact_number(*text);
      double d = 0;
      if (Access::element(value).get(d) != simdjson::SUCCESS) return std::nullopt;
      char buf[64];
      const auto r = std::to_chars(buf, buf + sizeof buf, d);  // the shortest text that reads back as d
      return exact_number(std::string_view(buf, static_cast<std::size_t>(r.ptr - buf)));
    }
    default: return std::nullopt;
  }
}

bool is_big_integer(View value) {
  if (value.type() != Type::float64) return false;
  auto text = replaced_text(Access::tape(value).doc, Access::tape(value).json_index);
  return text && text->find_first_of(".eE") == std::string::npos;
}

std::string_view type_phrase(View value) {
  switch (value.type()) {
    case Type::array: return "an array";
    case Type::object: return "an object";
    case Type::int64:
    case Type::uint64:
    case Type::float64: return "a number";
    case Type::string: return "a string";
    case Type::boolean: return "a boolean";
    case Type::null: return "null";
  }
  return "a value";
}

std::string minified(View value) {
  if (Access::detached(value)) return "null";
  return simdjson::to_string(Access::element(value));
}

bool is_one_value(std::string_view text) {
  thread_local simdjson::dom::parser parser;
  element ignored;
  return parse(parser, text).get(ignored) == simdjson::SUCCESS;
}

std::optional<std::size_t> trailing_data_at(std::string_view text, bool padded) {
  simdjson::dom::parser probe;
  simdjson::dom::document_stream stream;
  std::string copy;
  if (!padded) {
    copy = padded_copy(text);
    text = copy;
  }
  // A batch of the text's size: simdjson's default (1 MB, allocated per call) is costly for
  // every bad event of a long stream, and parse_many finds no value larger than its batch (a
  // HAR file over 1 MB with text after it was "cut short").
  const std::size_t batch = std::max<std::size_t>(text.size(), 32);
  if (probe.parse_many(text.data(), text.size(), batch).get(stream)) return std::nullopt;
  auto it = stream.begin();
  if (!(it != stream.end()) || (*it).error()) return std::nullopt;
  ++it;
  if (!(it != stream.end())) return std::nullopt;
  return it.current_index();
}

std::string pointer_escape(std::string_view key) {
  std::string out;
  for (char ch : key) {
    if (ch == '~') out += "~0";
    else if (ch == '/') out += "~1";
    else out += ch;
  }
  return out;
}

namespace {

/// The path (from `e`, reversed: innermost step first) of the first duplicate member name
/// anywhere in `e`; false when there is none. No allocation unless a duplicate is found: this
/// runs over every response (docs/performance.md).
bool find_duplicate_steps(element e, std::vector<std::string>& steps) {
  if (e.type() == element_type::OBJECT) {
    object obj = e;
    // Members seen so far: a small array, searched linearly (objects are small), then a set.
    constexpr std::size_t kLinear = 16;
    std::string_view seen_small[kLinear];
    std::size_t n = 0;
    std::unordered_set<std::string_view> seen_large;
    for (auto [key, value] : obj) {
      bool dup = false;
      if (n < kLinear) {
        for (std::size_t k = 0; k < n && !dup; ++k) dup = seen_small[k] == key;
        if (!dup) seen_small[n++] = key;
      } else {
        if (seen_large.empty()) seen_large.insert(seen_small, seen_small + kLinear);
        dup = !seen_large.insert(key).second;
      }
      if (dup) {
        steps.push_back(pointer_escape(key));
        return true;
      }
      if (value.type() == element_type::OBJECT || value.type() == element_type::ARRAY) {
        if (find_duplicate_steps(value, steps)) {
          steps.push_back(pointer_escape(key));
          return true;
        }
      }
    }
  } else if (e.type() == element_type::ARRAY) {
    array arr = e;
    std::size_t i = 0;
    for (element value : arr) {
      if (value.type() == element_type::OBJECT || value.type() == element_type::ARRAY) {
        if (find_duplicate_steps(value, steps)) {
          steps.push_back(std::to_string(i));
          return true;
        }
      }
      ++i;
    }
  }
  return false;
}

}  // namespace

std::optional<std::string> first_duplicate_member(View value, std::string_view prefix) {
  if (!value.is_object() && !value.is_array()) return std::nullopt;
  std::vector<std::string> steps;
  if (!find_duplicate_steps(Access::element(value), steps)) return std::nullopt;
  std::string out(prefix);
  for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
    out += '/';
    out += *it;
  }
  return out;
}

bool valid_utf8(std::string_view bytes) { return simdjson::validate_utf8(bytes.data(), bytes.size()); }

std::string padded_copy(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() + kPadding);
  out.assign(bytes);
  return out;
}

std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}

std::uint64_t hash_bytes(std::string_view bytes, std::uint64_t seed) {
  std::uint64_t h = 14695981039346656037ull ^ mix64(seed + 0x9e3779b97f4a7c15ull);
  for (char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return mix64(h ^ bytes.size());
}

namespace {

std::uint64_t canonical(element e, bool skip_meta) {
  // Recursion depth is bounded by simdjson's own depth limit (DEFAULT_MAX_DEPTH).
  switch (e.type()) {
    case element_type::OBJECT: {
      std::uint64_t sum = 0;
      std::uint64_t n = 0;
      for (auto [key, value] : object(e)) {
        if (skip_meta && key == "_meta") continue;
        sum += mix64(hash_bytes(key, 0x6b) ^ (canonical(value, false) * 0x9e3779b97f4a7c15ull));
        ++n;
      }
      return mix64(sum ^ mix64(n + 0x0b));
    }
    case element_type::ARRAY: {
      std::uint64_t h = 0xa7;
      for (element v : array(e)) h = mix64(h * 31 + canonical(v, false));
      return mix64(h ^ 0xa7a7);
    }
    case element_type::STRING: return hash_bytes(std::string_view(e), 0x57);
    case element_type::INT64: return mix64(static_cast<std::uint64_t>(std::int64_t(e)) ^ 0x1111);
    case element_type::UINT64: return mix64(std::uint64_t(e) ^ 0x2222);
    case element_type::DOUBLE: {
      const double d = double(e);
      std::uint64_t bits = 0;
      std::memcpy(&bits, &d, sizeof bits);
      return mix64(bits ^ 0x3333);
    }
    case element_type::BOOL: return bool(e) ? 0x7777 : 0x8888;
    case element_type::NULL_VALUE: return 0x9999;
  }
  return 0;
}

}  // namespace

std::uint64_t canonical_hash(View value, bool skip_meta) {
  if (Access::detached(value)) return 0x9999;  // a null
  return canonical(Access::element(value), skip_meta);
}

}  // namespace mcptriage::json
