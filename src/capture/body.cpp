// The one body step of every capture reader (body.hpp): content codings and --max-body.
#include "capture/body.hpp"

#include <simdjson.h>

#include <algorithm>
#include <utility>

#include "http/tokens.hpp"
#include "mcptriage/http.hpp"

namespace mcptriage::capture {

namespace {

/// Puts an inflated body in place; one cut at `max_body` is marked truncated and cut_at_max_body
/// (the classifier's `cut_at_limit`), with a warning naming the flag and `coding`.
void take_inflated(Response& response, http::Inflated inflated, std::vector<std::string>& warnings,
                   std::size_t max_body, std::string_view coding) {
  response.body = std::move(inflated.bytes);
  if (inflated.cut) {
    response.body_state = BodyState::truncated;
    response.cut_at_max_body = true;
    warnings.push_back("body larger than --max-body (" + std::to_string(max_body) + " bytes) once inflated (" +
                       std::string(coding) + "): cut there, judged as cut short");
  }
}

/// True when `body` reads as text: valid UTF-8 (RFC 3629) with no C0 control but tab, CR and LF.
/// Compressed data is practically never that; a body decoded by the capture tool is.
bool reads_as_text(std::string_view body) {
  const bool controls = std::any_of(body.begin(), body.end(), [](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return c < 0x20 && c != '\t' && c != '\n' && c != '\r';
  });
  return !controls && simdjson::validate_utf8(body.data(), body.size());
}

/// The codings of a `Content-Encoding` value (RFC 9110 §8.4), lower-cased, "identity" left out.
std::vector<std::string> content_codings(std::string_view value) {
  std::vector<std::string> out;
  for (std::string_view item : http::list_items(value)) {
    std::string coding = http::lower(item);
    if (coding != "identity") out.push_back(std::move(coding));
  }
  return out;
}

/// The gzip bytes of the body (`1f 8b`), inflated in place, with each reader's wording.
void inflate_gzip(Response& response, std::vector<std::string>& warnings, std::size_t max_body, BodySource source) {
  auto inflated = http::gunzip_prefix(response.body, max_body);
  if (inflated) {
    take_inflated(response, std::move(*inflated), warnings, max_body, "gzip");
    if (source == BodySource::curl_verbose) warnings.push_back("gzip body inflated (curl without --compressed)");
    if (source == BodySource::har) warnings.push_back("content.text held gzip bytes: inflated");
    return;
  }
  switch (source) {
    case BodySource::http_text:
      warnings.push_back("body starts with the gzip magic but does not inflate (" + inflated.error() +
                         "); kept as captured");
      break;
    case BodySource::curl_verbose:
      response.body_state = BodyState::truncated;
      warnings.push_back("gzip body that does not inflate: " + inflated.error());
      break;
    case BodySource::har:
      response.body_state = BodyState::truncated;
      warnings.push_back("content.text held gzip bytes that do not inflate: " + inflated.error());
      break;
  }
}

/// A body that still carries its Content-Encoding but is no gzip data.
void decode_content_coding(Response& response, std::vector<std::string>& warnings, std::size_t max_body) {
  const auto header = find_header(response.headers, "Content-Encoding");
  if (!header || response.body.empty() || http::looks_gzip(response.body) || reads_as_text(response.body)) return;
  const std::vector<std::string> codings = content_codings(*header);
  if (codings.empty()) return;
  if (codings.size() == 1 && (codings[0] == "gzip" || codings[0] == "x-gzip")) return;  // no 1f 8b: not gzip data
  if (codings.size() == 1 && codings[0] == "deflate") {
    auto inflated = http::inflate_deflate_prefix(response.body, max_body);
    if (inflated) {
      take_inflated(response, std::move(*inflated), warnings, max_body, "deflate");
      warnings.push_back("Content-Encoding: deflate body inflated");
      return;
    }
    response.undecoded_coding = "deflate";
    warnings.push_back("Content-Encoding: deflate body that does not inflate (" + inflated.error() +
                       "): not judged");
    return;
  }
  std::string named;
  for (const std::string& c : codings) named += (named.empty() ? "" : ", ") + c;
  response.undecoded_coding = named;
  warnings.push_back("Content-Encoding: " + named +
                     " not decoded (mcptriage decodes gzip and deflate): the body cannot be read; capture it "
                     "decoded (curl --compressed, a HAR with decoded content.text)");
}

}  // namespace

void decode_body(Response& response, std::vector<std::string>& warnings, std::size_t max_body, BodySource source) {
  if (http::looks_gzip(response.body)) inflate_gzip(response, warnings, max_body, source);
  decode_content_coding(response, warnings, max_body);
}

std::string keep_for_limit(std::string_view body, std::size_t max_body) {
  return std::string(body.substr(0, body.size() > max_body ? max_body + 1 : body.size()));
}

void limit_body(Response& response, std::vector<std::string>& warnings, std::size_t max_body) {
  std::string& body = response.body;
  if (body.size() <= max_body) return;
  warnings.push_back("body larger than --max-body (" + std::to_string(max_body) +
                     " bytes): cut there, judged as cut short");
  body.resize(max_body);
  body.shrink_to_fit();
  response.body_state = BodyState::truncated;
  response.cut_at_max_body = true;
}

}  // namespace mcptriage::capture
