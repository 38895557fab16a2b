// The one body step of every capture reader (body.hpp): content codings and --max-body.
#include "capture/body.hpp"

#include <algorithm>
#include <span>
#include <utility>

#include "http/tokens.hpp"
#include "json/dom.hpp"
#include "mcptriage/http.hpp"

namespace mcptriage::capture {

namespace {

/// True when `body` reads as text: valid UTF-8 (RFC 3629) with no C0 control but tab, CR and LF.
/// Compressed data is practically never that; a body decoded by the capture tool is.
bool reads_as_text(std::string_view body) {
  const bool controls = std::any_of(body.begin(), body.end(), [](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return c < 0x20 && c != '\t' && c != '\n' && c != '\r';
  });
  return !controls && json::valid_utf8(body);
}

/// The codings of a `Content-Encoding` value in the order they were applied (RFC 9110 §8.4),
/// lower-cased, "identity" left out.
std::vector<std::string> content_codings(std::string_view value) {
  std::vector<std::string> out;
  for (std::string_view item : http::list_items(value)) {
    std::string coding = http::lower(item);
    if (coding != "identity") out.push_back(std::move(coding));
  }
  return out;
}

using Decoder = std::expected<http::Inflated, std::string> (*)(std::string_view, std::size_t);

/// The decoder of a content coding (RFC 9110 §8.4.1; x-gzip is gzip, §8.4.1.3), or null.
Decoder decoder_for(std::string_view coding) {
  if (coding == "gzip" || coding == "x-gzip") return http::gunzip_prefix;
  if (coding == "deflate") return http::inflate_deflate_prefix;
  if (coding == "br") return http::decode_brotli_prefix;
  if (coding == "zstd") return http::decode_zstd_prefix;
  return nullptr;
}

std::string joined(std::span<const std::string> codings) {
  std::string out;
  for (const std::string& c : codings) out += (out.empty() ? "" : ", ") + c;
  return out;
}

/// "inflated" for the zlib codings (gzip, deflate), "decoded" for the others.
std::string_view done_word(std::string_view coding) {
  return coding == "gzip" || coding == "x-gzip" || coding == "deflate" ? "inflated" : "decoded";
}

/// A warning about the `coding` layer of the body: "Content-Encoding: gzip" + `what`, or for gzip
/// bytes no header names, "gzip" + `what` + where the coding was seen.
std::string said(std::string_view coding, bool labelled, std::string_view what) {
  if (labelled) return "Content-Encoding: " + std::string(coding) + std::string(what);
  return std::string(coding) + std::string(what) + " (the body starts with the gzip magic 1f 8b; no Content-Encoding names it)";
}

/// A body labelled with `codings` whose captured bytes are plain text (issue 14, "A
/// Content-Encoding that does not match the bytes"): exactly Content-Length of them were the
/// bytes on the wire, which no client can decode; otherwise the capture tool most likely decoded
/// them (curl --compressed keeps the header and the coded length).
void judge_plain_under_coding(Response& response, std::span<const std::string> codings,
                              std::vector<std::string>& warnings) {
  const std::string named = joined(codings);
  const auto length = http::content_length(response.headers);
  if (length && *length == response.body.size()) {
    response.plain_under_coding = true;
    warnings.push_back("Content-Encoding: " + named + ", but the body is plain text of exactly its Content-Length (" +
                       std::to_string(*length) + " bytes): the bytes the server sent, which no client can decode as " +
                       named);
    return;
  }
  warnings.push_back("Content-Encoding: " + named +
                     ", but the body is plain text: read as decoded by the capture tool, which kept the header (curl "
                     "--compressed does); had the server sent these bytes, no client could decode them");
}

}  // namespace

void decode_body(Response& response, std::vector<std::string>& warnings, std::size_t max_body,
                 CodingEvidence evidence) {
  if (response.body.empty()) return;
  const auto header = find_header(response.headers, "Content-Encoding");
  std::vector<std::string> codings = header ? content_codings(*header) : std::vector<std::string>{};
  // Undo the codings last applied first, while the bytes are still coded: bytes that read as
  // text were decoded by the capture tool (curl --compressed, HAR exporters) or here.
  for (bool first = true;; first = false) {
    const bool gzip_magic = http::looks_gzip(response.body);
    if (!gzip_magic && (codings.empty() || reads_as_text(response.body))) {
      if (first && !codings.empty() && evidence == CodingEvidence::bytes_as_captured) {
        judge_plain_under_coding(response, codings, warnings);
      }
      return;
    }
    // Bytes starting 1f 8b are gzip whatever the header says (curl without --compressed writes
    // them as received, RFC 9110 §8.4.1.3); they answer the header's last gzip if it has one.
    std::string coding;
    bool labelled = true;  // the header names the coding (not only the gzip magic)
    if (gzip_magic) {
      coding = "gzip";
      labelled = !codings.empty() && decoder_for(codings.back()) == http::gunzip_prefix;
      if (labelled) codings.pop_back();
    } else {
      coding = codings.back();
      codings.pop_back();
    }
    const Decoder decode = decoder_for(coding);
    if (decode == nullptr) {
      codings.push_back(coding);
      response.undecoded_coding = joined(codings);
      warnings.push_back("Content-Encoding: " + response.undecoded_coding +
                         " not decoded (mcptriage decodes gzip, deflate, br and zstd): the body cannot be read; capture it "
                         "decoded (curl --compressed, a HAR with decoded content.text)");
      return;
    }
    auto decoded = decode(response.body, max_body);
    if (!decoded) {
      // Not that coding at all: the capture altered the bytes, or the server sent bytes no
      // client can decode. Either way nothing in them can be judged (docs/formats.md).
      codings.push_back(coding);
      response.undecoded_coding = joined(codings);
      warnings.push_back(said(coding, labelled, " body that does not decode (" + decoded.error() +
                                                   "): kept as captured, not judged"));
      return;
    }
    const std::size_t coded_size = response.body.size();
    response.body = std::move(decoded->bytes);
    if (decoded->cut) {
      response.body_state = BodyState::truncated;
      response.cut_at_max_body = true;
      warnings.push_back("body larger than --max-body (" + std::to_string(max_body) + " bytes) once " +
                         std::string(done_word(coding)) + " (" + coding + "): cut there, judged as cut short");
      return;
    }
    if (decoded->input_ended) {
      response.body_state = BodyState::truncated;
      warnings.push_back(said(coding, labelled,
                              " body cut short (" + http::cut_short_text(coding, coded_size) + "): the " +
                                  std::to_string(response.body.size()) + " bytes it holds are judged as cut short"));
      return;
    }
    warnings.push_back(said(coding, labelled, " body " + std::string(done_word(coding))));
  }
}

std::string keep_for_limit(std::string_view body, const Headers& headers, std::size_t max_body) {
  const auto coding = find_header(headers, "Content-Encoding");
  const bool coded = http::looks_gzip(body) || (coding && !content_codings(*coding).empty());
  if (coded || body.size() <= max_body) return std::string(body);
  return std::string(body.substr(0, max_body + 1));
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
