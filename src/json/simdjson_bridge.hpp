// Between json::View (dom.hpp) and simdjson's DOM: for the files of src/json/ only, the one place
// besides them that may name simdjson types. A View is the (document, tape index) pair of a
// simdjson::dom::element, with its type read once.
#pragma once

#include <simdjson.h>

#include <array>
#include <bit>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>

#include "json/dom.hpp"

namespace mcptriage::json {

static_assert(kPadding == simdjson::SIMDJSON_PADDING, "json::kPadding must be simdjson's padding");
static_assert(kMaxDepth == simdjson::DEFAULT_MAX_DEPTH, "json::kMaxDepth must be simdjson's depth limit");
static_assert(sizeof(simdjson::dom::element) == sizeof(simdjson::internal::tape_ref) &&
                  std::is_trivially_copyable_v<simdjson::dom::element> &&
                  std::is_trivially_copyable_v<simdjson::internal::tape_ref>,
              "a simdjson element is a tape reference: (document, index)");

namespace detail {

/// Type by simdjson's element_type, whose values are the tape's type characters: one look-up.
inline constexpr auto kTypeByTapeChar = [] {
  std::array<Type, 256> t{};
  using simdjson::dom::element_type;
  t[static_cast<unsigned char>(element_type::ARRAY)] = Type::array;
  t[static_cast<unsigned char>(element_type::OBJECT)] = Type::object;
  t[static_cast<unsigned char>(element_type::INT64)] = Type::int64;
  t[static_cast<unsigned char>(element_type::UINT64)] = Type::uint64;
  t[static_cast<unsigned char>(element_type::DOUBLE)] = Type::float64;
  t[static_cast<unsigned char>(element_type::STRING)] = Type::string;
  t[static_cast<unsigned char>(element_type::BOOL)] = Type::boolean;
  t[static_cast<unsigned char>(element_type::NULL_VALUE)] = Type::null;
  return t;
}();

inline Type type_of(simdjson::dom::element_type t) noexcept { return kTypeByTapeChar[static_cast<unsigned char>(t)]; }

struct Access {
  static simdjson::internal::tape_ref tape(const View& v) noexcept {
    return simdjson::internal::tape_ref(static_cast<const simdjson::dom::document*>(v.doc_), v.index_);
  }
  static simdjson::dom::element element(const View& v) noexcept {
    return std::bit_cast<simdjson::dom::element>(tape(v));
  }
  static View view(const simdjson::internal::tape_ref& t) noexcept {
    View v;
    v.doc_ = t.doc;
    v.index_ = t.json_index;
    v.type_ = type_of(std::bit_cast<simdjson::dom::element>(t).type());
    return v;
  }
  static View view(simdjson::dom::element e) noexcept { return view(std::bit_cast<simdjson::internal::tape_ref>(e)); }
  static simdjson::dom::parser& parser(Parser& p) noexcept;
  /// A View of no document (View()).
  static bool detached(const View& v) noexcept { return v.doc_ == nullptr; }

  static ItemIterator item_at(const View& array, std::size_t position) noexcept {
    ItemIterator it;
    it.position_ = position;
    it.current_ = view(simdjson::internal::tape_ref(static_cast<const simdjson::dom::document*>(array.doc_), position));
    return it;
  }
  static void fill(MemberIterator& it) noexcept {
    if (it.position_ == it.end_) return;
    const simdjson::internal::tape_ref key(static_cast<const simdjson::dom::document*>(it.doc_), it.position_);
    it.current_.key = key.get_string_view();
    it.current_.value = view(simdjson::internal::tape_ref(key.doc, it.position_ + 1));
  }
  static ItemRange items(const View& v) noexcept;
  static MemberRange members(const View& v) noexcept;
};

}  // namespace detail

/// The simdjson element a View stands for (a View of no document: an invalid element).
inline simdjson::dom::element element_of(const View& v) noexcept { return detail::Access::element(v); }
/// The View of a simdjson element.
inline View view_of(simdjson::dom::element e) noexcept { return detail::Access::view(e); }
/// The simdjson parser inside a Parser.
inline simdjson::dom::parser& simdjson_parser(Parser& p) noexcept { return detail::Access::parser(p); }

/// `parser.parse(text)`, for a parser reused across documents (Parser::parse says how it stays
/// bounded). `padded`: the caller promises kPadding allocated bytes after `text`, and simdjson
/// reads it in place; otherwise `text` is copied into the parser's padded buffer first. The
/// result is valid until the parser parses again. `max_depth`: the nesting refused beyond
/// (DEPTH_ERROR), kept by the parser until it is replaced.
simdjson::simdjson_result<simdjson::dom::element> parse(simdjson::dom::parser& parser, std::string_view text,
                                                        bool padded = false, std::size_t max_depth = kMaxDepth);

/// The ParseError of a simdjson error code.
ParseError parse_error(simdjson::error_code err) noexcept;

}  // namespace mcptriage::json
