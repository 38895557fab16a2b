// Internal helpers over simdjson's DOM shared by the readers, the classifier and the session
// analysis: member lookup, and a hash of JSON values read as canonical JSON. Not public API.
#pragma once

#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mcptriage::json {

/// The member `key` of `value` when `value` is an object that has it (the first one when a
/// name repeats: simdjson's at_key), else nullopt.
std::optional<simdjson::dom::element> member(simdjson::dom::element value, std::string_view key);

/// The member `key` when it is a string: a view into the parser's document, valid until the
/// parser parses again.
std::optional<std::string_view> string_member(simdjson::dom::element value, std::string_view key);

/// The member `key` when it is a boolean.
std::optional<bool> bool_member(simdjson::dom::element value, std::string_view key);

/// Documents up to this size keep a reused parser's buffers; after a larger one they are given
/// back before the next smaller document (json::parse).
inline constexpr std::size_t kKeptParserCapacity = std::size_t{256} << 10;

/// Bytes simdjson may read past the end of a document (SIMDJSON_PADDING): they must be
/// allocated, whatever they hold (simdjson's dom::parser::parse, "REQUIRED: Buffer Padding").
inline constexpr std::size_t kPadding = simdjson::SIMDJSON_PADDING;

/// `parser.parse(text)`, for a parser reused across documents (one per thread): a simdjson
/// parser keeps the buffers of the largest document it has parsed (about 15 bytes per byte),
/// so after a document larger than kKeptParserCapacity it starts afresh before a smaller one,
/// and memory stays bounded by what is being parsed now (docs/performance.md). `padded`: the
/// caller promises kPadding allocated bytes after `text`, and simdjson reads it in place;
/// otherwise `text` is copied into the parser's padded buffer first. The result is valid until
/// the parser parses again.
simdjson::simdjson_result<simdjson::dom::element> parse(simdjson::dom::parser& parser, std::string_view text,
                                                        bool padded = false);

/// parse() of a string, in place when its capacity leaves kPadding bytes after it (as
/// simdjson's own std::string overload does), else copied.
simdjson::simdjson_result<simdjson::dom::element> parse_string(simdjson::dom::parser& parser, const std::string& text);

/// A copy of `bytes` with room for kPadding more, so that parse() reads it in place.
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
std::uint64_t canonical_hash(simdjson::dom::element value, bool skip_meta = false);

}  // namespace mcptriage::json
