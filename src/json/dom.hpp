// Reading JSON for the rest of the tool: a parser, views of the values it parsed, and the helpers
// over them (member lookup, minified text, a canonical hash, duplicate member names, JSON
// Pointer escaping, UTF-8 validation). simdjson's DOM does the work behind this wall: src/json/
// is the only folder that includes simdjson.h (src/json/simdjson_bridge.hpp), and no simdjson
// type appears here. Not public API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <expected>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mcptriage::json {

/// Bytes the parser may read past the end of a document (simdjson's SIMDJSON_PADDING): they must
/// be allocated, whatever they hold (Parser::parse with `padded`).
inline constexpr std::size_t kPadding = 64;

/// Nesting depth past which a document is refused (simdjson's DEFAULT_MAX_DEPTH).
inline constexpr std::size_t kMaxDepth = 1024;

/// Documents up to this size keep a reused parser's buffers; after a larger one they are given
/// back before the next smaller document (Parser::parse).
inline constexpr std::size_t kKeptParserCapacity = std::size_t{256} << 10;

/// The type of a JSON value (RFC 8259 §3). Numbers keep how they were read: an integer that fits
/// 64 signed bits is int64, a larger non-negative one uint64, anything else (a fraction, an
/// exponent, a larger integer) float64.
enum class Type : std::uint8_t { null, boolean, int64, uint64, float64, string, array, object };

namespace detail {
struct Access;
}

class ItemRange;
class MemberRange;

/// A view of one value of a parsed document: 24 bytes, copied freely, valid until its Parser
/// parses again (or is destroyed). A default View is a null that belongs to no document.
/// Accessors that ask for another type answer nullopt (or 0, or an empty range), never fail.
class View {
 public:
  View() = default;

  Type type() const noexcept { return type_; }
  bool is_null() const noexcept { return type_ == Type::null; }
  bool is_bool() const noexcept { return type_ == Type::boolean; }
  bool is_string() const noexcept { return type_ == Type::string; }
  bool is_array() const noexcept { return type_ == Type::array; }
  bool is_object() const noexcept { return type_ == Type::object; }
  /// int64 or uint64.
  bool is_integer() const noexcept { return type_ == Type::int64 || type_ == Type::uint64; }
  /// int64, uint64 or float64.
  bool is_number() const noexcept { return is_integer() || type_ == Type::float64; }

  /// The first member named `key` of an object (a repeated name: the first wins); nullopt when
  /// this is no object or has no such member. Linear in the members before it.
  std::optional<View> get(std::string_view key) const {
    if (type_ != Type::object) return std::nullopt;
    return find(key);
  }
  /// get(key) when it is a string: a view into the document.
  std::optional<std::string_view> string_at(std::string_view key) const;
  /// get(key) when it is a boolean.
  std::optional<bool> bool_at(std::string_view key) const;

  /// The unescaped bytes of a string (a view into the document).
  std::optional<std::string_view> string() const {
    if (type_ != Type::string) return std::nullopt;
    return string_unchecked();
  }
  std::optional<bool> boolean() const;
  /// An integer that fits int64 (an int64, or a uint64 up to 2^63-1); a float64 is no integer.
  std::optional<std::int64_t> int64() const;
  /// A non-negative integer.
  std::optional<std::uint64_t> uint64() const;
  /// Any number as a double (a large integer rounds).
  std::optional<double> number() const;

  /// Elements of an array, members of an object (repeats counted), 0 for anything else.
  std::size_t size() const;
  /// Element `i` of an array; nullopt past the end or when this is no array.
  std::optional<View> at(std::size_t i) const;
  /// The elements of an array in order (none when this is no array).
  ItemRange items() const;
  /// The members of an object in document order, repeats included (none when this is no object).
  MemberRange members() const;

 private:
  friend struct detail::Access;
  std::optional<View> find(std::string_view key) const;
  std::string_view string_unchecked() const;

  const void* doc_ = nullptr;  ///< the parser's document
  std::size_t index_ = 0;      ///< where the value starts in it
  Type type_ = Type::null;
};

/// One member of an object.
struct Member {
  std::string_view key;  ///< unescaped, a view into the document
  View value;
};

/// Iterates the elements of an array (View::items).
class ItemIterator {
 public:
  View operator*() const noexcept { return current_; }
  ItemIterator& operator++();
  bool operator==(const ItemIterator& other) const noexcept { return position_ == other.position_; }

 private:
  friend struct detail::Access;
  View current_;
  std::size_t position_ = 0;
};

class ItemRange {
 public:
  ItemIterator begin() const noexcept { return begin_; }
  ItemIterator end() const noexcept { return end_; }

 private:
  friend struct detail::Access;
  ItemIterator begin_;
  ItemIterator end_;
};

/// Iterates the members of an object (View::members).
class MemberIterator {
 public:
  const Member& operator*() const noexcept { return current_; }
  MemberIterator& operator++();
  bool operator==(const MemberIterator& other) const noexcept { return position_ == other.position_; }

 private:
  friend struct detail::Access;
  Member current_;
  const void* doc_ = nullptr;
  std::size_t position_ = 0;
  std::size_t end_ = 0;
};

class MemberRange {
 public:
  MemberIterator begin() const noexcept { return begin_; }
  MemberIterator end() const noexcept { return end_; }

 private:
  friend struct detail::Access;
  MemberIterator begin_;
  MemberIterator end_;
};

/// Why a text is not one JSON value (RFC 8259), by what the tool says about it.
enum class ParseFault : std::uint8_t {
  empty,      ///< no value at all (white space only)
  utf8,       ///< not valid UTF-8 (RFC 8259 §8.1)
  too_deep,   ///< nested deeper than kMaxDepth
  too_large,  ///< too large for the parser (capacity, memory)
  cut_short,  ///< ends inside a value: an unclosed string, array or object
  syntax,     ///< anything else: bad syntax, or text after the value
};

/// A text that did not parse: the fault, and the parser's one-line message for it (static text,
/// e.g. "The JSON document has an improper structure: ...").
struct ParseError {
  ParseFault fault = ParseFault::syntax;
  std::string_view message;
};

/// What a parse read that simdjson 3.0.1 refuses though RFC 8259 allows it (Parser::parse):
/// integers beyond 64 bits and numbers beyond the double range (§6 sets no limit on either),
/// and escaped unpaired surrogates (§8.2: allowed; their meaning is left to the reader).
struct Leniency {
  std::size_t big_integers = 0;     ///< read exactly (exact_number), as doubles by number()
  std::size_t out_of_range = 0;     ///< read exactly; number() gives +-infinity
  std::size_t lone_surrogates = 0;  ///< each read as U+FFFD
  bool any() const noexcept { return big_integers + out_of_range + lone_surrogates > 0; }
};

/// A reusable JSON parser (one per thread: never shared across threads). It keeps the buffers of
/// the largest document it has parsed (about 15 bytes per byte), but after a document larger than
/// kKeptParserCapacity it starts afresh before a smaller one, so memory stays bounded by what is
/// being parsed now (docs/performance.md). One document at a time: parsing again ends the views of
/// the previous one.
class Parser {
 public:
  Parser();
  /// A parser that refuses (ParseFault::too_deep) texts nested deeper than `max_depth` levels
  /// (at most kMaxDepth): for a value cut out of a larger document at some depth, so that it
  /// is refused exactly when the whole document would be.
  explicit Parser(std::size_t max_depth);
  ~Parser();
  Parser(Parser&&) noexcept;
  Parser& operator=(Parser&&) noexcept;

  /// Parses `text` fully (every value validated, UTF-8 included). simdjson on the fast path; when
  /// it refuses a number or a string, an exact RFC 8259 grammar check reads the text again and
  /// what simdjson cannot hold (Leniency) is parsed from a rewritten copy: leniency() says what. `padded`: the caller promises
  /// kPadding allocated bytes after `text`, which is then read in place; otherwise it is copied
  /// into the parser's padded buffer first. The root value, or why the text is not one JSON value.
  std::expected<View, ParseError> parse(std::string_view text, bool padded = false);
  /// parse() of a string, in place when its capacity leaves kPadding bytes after it.
  std::expected<View, ParseError> parse_string(const std::string& text);
  /// Bytes held for documents (for tests of the bounded reuse).
  std::size_t capacity() const;
  /// What the last successful parse read beyond simdjson (none after a plain parse).
  const Leniency& leniency() const;

 private:
  friend struct detail::Access;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The exact value of a number as canonical text (equal values, equal text: `1`, `1.0` and
/// `10E-1` are all `1`; a number simdjson could not hold is read from its text, one it holds as
/// a double from the double's shortest text) and whether it has no fractional part; nullopt
/// for anything but a number. For comparing ids by value (JSON-RPC 2.0 §5, MCP basic).
struct ExactNumber {
  std::string text;
  bool integer = false;
};
std::optional<ExactNumber> exact_number(View value);
/// An integer token beyond 64 bits (Leniency::big_integers): an integer, though its type() is
/// float64 (number() rounds it as JavaScript does).
bool is_big_integer(View value);
/// The same for a number given as text (RFC 8259 §6 grammar); nullopt when it is not one.
std::optional<ExactNumber> exact_number(std::string_view token);

/// The type of `value` as a detail names it: "an array", "an object", "a number", "a string",
/// "a boolean", "null".
std::string_view type_phrase(View value);

/// Minified JSON text of `value`: member order and repeated names kept, strings escaped as
/// JSON requires (`"`, `\`, and control characters; \b \f \n \r \t by their short forms).
std::string minified(View value);

/// True when `text` is exactly one JSON value (white space around it allowed). Parses with a
/// parser of the calling thread's own.
bool is_one_value(std::string_view text);

/// When `text` starts with one complete JSON value followed by more non-white-space text, the
/// byte offset where the text after it starts (RFC 8259 §2: a JSON text is one value); nullopt
/// when `text` does not start with a complete value, or holds nothing after it. For the detail of
/// a text that did not parse (a second value glued to the first). Memory: about what a parse of
/// `text` takes, and a copy of it unless `padded` (kPadding readable bytes after it).
std::optional<std::size_t> trailing_data_at(std::string_view text, bool padded = false);

/// JSON Pointer (RFC 6901), under `prefix`, of the first repeated member name anywhere in
/// `value`, in document order ("/result/content/0/type"); nullopt when no object repeats a name.
/// RFC 8259 §4 leaves the meaning of repeated names undefined. No allocation unless one is found.
std::optional<std::string> first_duplicate_member(View value, std::string_view prefix);

/// A member name as a JSON Pointer reference token (RFC 6901 §3): `~` as `~0`, `/` as `~1`.
std::string pointer_escape(std::string_view key);

/// Whether `bytes` is valid UTF-8 (RFC 3629: no overlong forms, surrogates or values past
/// U+10FFFF). SIMD-fast.
bool valid_utf8(std::string_view bytes);

/// Reads the elements of one array deep inside a large JSON text one at a time, in bounded
/// memory (simdjson On-Demand over the text; only one element is a tree at a time), as for
/// the `log.entries` of a HAR file.
///
/// `path` names the array from the root object (`{"log", "entries"}`). `element` is called
/// with each element of that array, in order, as a View valid only during the call.
/// Every value outside the array is parsed and checked too, each by itself, with the depth
/// it has in the whole text, so the walk succeeds exactly for the texts Parser::parse would
/// accept as a whole, with each name on the path present once and naming an object (the last
/// an array). Returns false otherwise (invalid JSON, UTF-8 or depth, a missing, repeated or
/// mistyped name on the path, text after the root): the caller then reads the whole text
/// with Parser::parse, which says why, and drops what `element` saw. Memory: the text, 4
/// bytes per JSON token of it (simdjson's structural index), and the largest one value.
/// `text` must have kPadding readable bytes after it (`padded` otherwise: it is copied).
bool for_each_element_at(std::string_view text, bool padded, std::span<const std::string_view> path,
                         const std::function<void(View)>& element);

/// A copy of `bytes` with room for kPadding more, so that Parser::parse_string reads it in place.
std::string padded_copy(std::string_view bytes);

/// splitmix64's finaliser: spreads the bits of `x` over the whole word.
std::uint64_t mix64(std::uint64_t x);

/// 64-bit hash of `bytes` under `seed` (FNV-1a over the bytes, then mix64).
std::uint64_t hash_bytes(std::string_view bytes, std::uint64_t seed);

/// 64-bit hash of `value` read as canonical JSON: object members in any order (the hashes of
/// the members are summed, so a repeated member counts twice), arrays in order, strings by
/// their unescaped bytes, numbers by type and value (`1` is not `1.0`, as in minified text).
/// `skip_meta` leaves out a top-level `_meta` member (MCP `params._meta`: progress tokens and
/// the like, which do not make a call different). Equal canonical JSON gives equal hashes;
/// different JSON gives equal hashes with a chance of about 2^-64 per pair.
std::uint64_t canonical_hash(View value, bool skip_meta = false);

/// Where a value is in a text: bytes [begin, end) from the text's start.
struct TextRange {
  std::size_t begin = 0;
  std::size_t end = 0;
};

/// The bytes of the value at `path` in `text`: from the root object, the member named `path[0]`
/// (the first of that name), in it the member `path[1]`, and so on; for a string, the quotes
/// included; for an array or object, its brackets; never the white space after it. For editing a
/// file in place, keeping every byte around the value. `text` must be one valid JSON value
/// (checked with Parser::parse first: this reads only as far as the path needs); nullopt when a
/// member is missing or a step is not an object. Memory: a padded copy of `text`.
std::optional<TextRange> member_value_range(std::string_view text, const std::vector<std::string_view>& path);

}  // namespace mcptriage::json
