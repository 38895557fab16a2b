// HTTP text reader (curl -i/-D -, raw HTTP/1.1, HTTPie -v, TCP conversations): blocks, body ends.

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "capture/body.hpp"
#include "capture/http_text_parts.hpp"
#include "capture/readers.hpp"
#include "http/tokens.hpp"
#include "json/dom.hpp"
#include "mcptriage/http.hpp"

namespace mcptriage::capture {

namespace {

using namespace http_text_parts;  // NOLINT: the reader is written in terms of its parts

using http::all_space;
using http::content_length;
using http::field_line_name;
using http::iequals;
using http::is_ows;
using http::list_has;
using http::trim_ows;


// ---------------------------------------------------------------------------------------
// Finding where the next message starts

constexpr std::array<std::string_view, 9> kMethods = {"OPTIONS", "CONNECT", "DELETE", "PATCH",
                                                      "TRACE",   "POST",    "HEAD",   "PUT",
                                                      "GET"};

/// Searches a capture for the start of the next HTTP message after a body. curl writes the
/// next transfer's status line straight after the last body byte (`...}}HTTP/1.1 202`), so
/// a candidate may start mid-line; it counts only when header lines and an empty line
/// follow. Linear overall: failed header scans and line ends are remembered.
class NextMessageFinder {
 public:
  NextMessageFinder(std::string_view text, bool requests_too)
      : text_(text), requests_too_(requests_too) {}

  /// Position of the next status line (or request line, in a conversation) at or after
  /// `from`, or npos.
  std::size_t find(std::size_t from) {
    std::size_t p = from;
    while ((p = text_.find("HTTP/", p)) != npos) {
      if (status_line_at(p)) return p;
      if (requests_too_) {
        const std::size_t start = request_line_ending_at(p, from);
        if (start != npos) return start;
      }
      p += 5;
    }
    return npos;
  }

 private:
  /// Caches facts about the line holding `p` (from `p` on): where its LF is, where its
  /// content ends, and the last control byte in it. Each line is scanned once.
  void cache_line(std::size_t p) {
    if (line_valid_ && p >= line_from_ && (lf_ == npos || p <= lf_)) return;
    line_valid_ = true;
    line_from_ = p;
    lf_ = text_.find('\n', p);
    content_end_ = lf_ == npos ? text_.size() : lf_;
    while (content_end_ > p && text_[content_end_ - 1] == '\r') --content_end_;
    last_control_ = npos;
    for (std::size_t i = p; i < content_end_; ++i) {
      const auto u = static_cast<unsigned char>(text_[i]);
      if ((u < 0x20 && text_[i] != '\t') || u == 0x7f) last_control_ = i;
    }
  }

  static bool digit(char c) { return c >= '0' && c <= '9'; }

  /// A status line (RFC 9112 §4, as parse_status_line) starts at `p` and a header block
  /// follows. O(1) per call apart from the cached line scan and the memoised block scan.
  bool status_line_at(std::size_t p) {
    cache_line(p);
    if (lf_ == npos) return false;
    if (last_control_ != npos && last_control_ >= p) return false;
    std::size_t i = p + 5;  // after "HTTP/"
    if (i >= content_end_ || !digit(text_[i])) return false;
    ++i;
    if (i < content_end_ && text_[i] == '.') {
      if (i + 1 >= content_end_ || !digit(text_[i + 1])) return false;
      i += 2;
    }
    if (i + 4 > content_end_ || text_[i] != ' ' || text_[i + 1] < '1' || text_[i + 1] > '9' ||
        !digit(text_[i + 2]) || !digit(text_[i + 3])) {
      return false;
    }
    const bool informational = text_[i + 1] == '1';
    i += 4;
    if (i < content_end_ && text_[i] != ' ') return false;
    const std::size_t block_start = lf_ + 1;
    const auto fields = valid_block_after(block_start);
    if (!fields) return false;
    // An empty block counts for 1xx ("HTTP/1.1 100 Continue" + empty line, RFC 9110 §15.2)
    // or when another status line follows at once (a CONNECT reply); otherwise stray text
    // in a body would split it too easily.
    if (*fields == 0 && !informational) {
      const Line next = line_at(text_, blank_next_);
      if (next.terminated && http::parse_status_line(next.content)) return true;
      fail_until_ = std::max(fail_until_, block_start + 1);  // same answer for this start
      return false;
    }
    return true;
  }

  /// `p` is at "HTTP/" of a possible request line `METHOD SP target SP HTTP/x.y`; returns
  /// where that line starts (not before `floor`), or npos.
  std::size_t request_line_ending_at(std::size_t p, std::size_t floor) {
    if (p < floor + 4 || text_[p - 1] != ' ') return npos;
    cache_line(p);
    const std::size_t lf = lf_;
    if (lf == npos) return npos;
    std::string_view version = text_.substr(p, lf - p);
    while (!version.empty() && version.back() == '\r') version.remove_suffix(1);
    if (version.size() != 8 || version[6] != '.') return npos;
    // target: back to the previous space
    std::size_t t = p - 1;
    while (t > floor && text_[t - 1] != ' ' && static_cast<unsigned char>(text_[t - 1]) > 0x20) {
      --t;
    }
    if (t == p - 1 || t <= floor || text_[t - 1] != ' ') return npos;
    const std::size_t method_end = t - 1;
    std::size_t m = method_end;
    while (m > floor && method_end - m < 24 && is_method_char(text_[m - 1])) --m;
    if (m == method_end) return npos;
    const bool at_line_start = m == floor || text_[m - 1] == '\n';
    if (!at_line_start || method_end - m >= 24) {
      // Glued after a body (`...}POST /x HTTP/1.1`): only a known method counts.
      const std::string_view run = text_.substr(m, method_end - m);
      std::size_t found = npos;
      for (std::string_view method : kMethods) {
        if (run.size() >= method.size() && run.substr(run.size() - method.size()) == method) {
          found = method_end - method.size();
          break;
        }
      }
      if (found == npos) return npos;
      m = found;
    }
    if (!parse_request_line(text_.substr(m, p + version.size() - m))) return npos;
    const auto fields = valid_block_after(lf + 1);
    if (!fields || *fields == 0) return npos;
    return m;
  }

  /// Number of field lines from `pos` up to an empty line, or nullopt when a line that is
  /// neither comes first (or EOF). Sets blank_next_ to the position after the empty line.
  std::optional<std::size_t> valid_block_after(std::size_t pos) {
    if (pos < fail_until_) return std::nullopt;  // same lines as a scan that already failed
    std::size_t fields = 0;
    while (true) {
      const Line line = line_at(text_, pos);
      if (!line.terminated) {
        fail_until_ = text_.size() + 1;
        return std::nullopt;
      }
      if (line.content.empty()) {
        blank_next_ = line.next;
        return fields;
      }
      if (is_ows(line.content.front()) && fields > 0) {
        // obs-fold continuation
      } else {
        const std::string_view name = field_line_name(line.content);
        // SSE field lines ("data: HTTP/1.1 200 OK" then "data: x") look like header lines.
        if (name.empty() || name == "data" || name == "event" || name == "id" ||
            name == "retry") {
          fail_until_ = line.begin;
          return std::nullopt;
        }
        ++fields;
      }
      pos = line.next;
    }
  }

  std::string_view text_;
  bool requests_too_;
  std::size_t fail_until_ = 0;
  std::size_t blank_next_ = 0;
  bool line_valid_ = false;
  std::size_t line_from_ = 0;
  std::size_t lf_ = 0;
  std::size_t content_end_ = 0;
  std::size_t last_control_ = npos;
};

// ---------------------------------------------------------------------------------------
// ---------------------------------------------------------------------------------------
// The reader

class HttpTextReader {
 public:
  HttpTextReader(std::string_view text, std::string_view name, std::size_t max_body)
      : text_(text),
        name_(name),
        max_body_(max_body),
        conversation_(parse_request_line(line_at(text, 0).content).has_value()),
        finder_(text, conversation_) {}

  std::vector<Exchange> run() {
    std::size_t pos = 0;
    while (pos < text_.size()) {
      const Line line = line_at(text_, pos);
      if (auto status = http::parse_status_line(line.content)) {
        pos = read_response(line, *status);
      } else if (auto request = parse_request_line(line.content)) {
        pos = read_request(line, std::move(*request));
      } else {
        break;  // not reached: positions come from the finder or the sniffed first line
      }
    }
    if (transfer_.request) flush_request_only();
    return std::move(exchanges_);
  }

 private:
  struct Transfer {
    std::optional<Request> request;
    std::size_t request_length_missing = 0;  ///< Content-Length of a request body not seen yet
    std::vector<std::string> warnings;
  };

  std::size_t read_request(const Line& line, RequestLine request_line) {
    if (transfer_.request) flush_request_only();
    Block block = read_header_block(text_, line.next);
    Request request;
    request.method_line = std::move(request_line.method);
    request.target = std::move(request_line.target);
    request.headers = std::move(block.headers);
    if (block.end == BlockEnd::eof) {
      transfer_.warnings.push_back("capture ends inside the request header block");
      transfer_.request = std::move(request);
      return text_.size();
    }
    if (block.end == BlockEnd::non_field) {
      transfer_.warnings.push_back("request header block has no empty line; the body is "
                                   "assumed to start at the first line that is not a header field");
    }
    const std::size_t next = finder_.find(block.body_start);
    const std::size_t region_end = next == npos ? text_.size() : next;
    const std::string_view region = text_.substr(block.body_start, region_end - block.body_start);
    const auto length = content_length(request.headers);
    const auto te = find_header(request.headers, "Transfer-Encoding");
    if (length) {
      if (region.size() >= *length) {
        request.body = std::string(region.substr(0, *length));
        const std::string_view extra = region.substr(*length);
        if (!all_space(extra)) {
          transfer_.warnings.push_back(std::to_string(extra.size()) +
                                       " bytes after the request body ignored");
        }
      } else if (region.empty() || all_space(region)) {
        // Expect: 100-continue on the wire: the body comes after the interim response.
        transfer_.request_length_missing = *length;
      } else {
        request.body = std::string(region);
        transfer_.warnings.push_back("request body has " + std::to_string(region.size()) +
                                     " of " + std::to_string(*length) +
                                     " bytes announced by Content-Length");
      }
    } else if (te && list_has(*te, "chunked")) {
      if (auto d = http::dechunk(region)) {
        request.body = std::move(d->body);
      } else {
        request.body = std::string(region);
      }
    } else if (!all_space(region)) {
      std::string_view body = region;
      // HTTPie prints "\n\n" after the request body.
      if (body.size() >= 2 && body.substr(body.size() - 2) == "\n\n") body.remove_suffix(2);
      request.body = std::string(body);
    }
    transfer_.request = std::move(request);
    return region_end;
  }

  std::size_t read_response(const Line& line, const http::StatusLine& status_line) {
    Block block = read_header_block(text_, line.next);
    Response response;
    response.http_version = status_line.version;
    response.status = status_line.status;
    response.reason = status_line.reason;
    response.headers = std::move(block.headers);
    std::vector<std::string> warnings;
    const std::string shown = status_text(status_line.status, status_line.reason);

    if (block.end == BlockEnd::eof) {
      response.body_state = BodyState::truncated;
      warnings.push_back("capture ends inside the header block of " + shown +
                         (block.partial_line_dropped ? " (incomplete last line dropped)" : "") +
                         "; no body");
      finish(std::move(response), std::move(warnings), false);
      return text_.size();
    }
    if (block.end == BlockEnd::non_field) {
      // A field name with white space before its colon is no field line (RFC 9112 §5.1: a
      // client rejects the response); say that rather than a missing empty line.
      const std::string_view first = text_.substr(block.body_start, std::min<std::size_t>(text_.size() - block.body_start, 200));
      const std::string_view first_line = first.substr(0, first.find_first_of("\r\n"));
      const std::size_t colon = first_line.find(':');
      const std::string_view name = first_line.substr(0, colon == std::string_view::npos ? 0 : colon);
      const bool space_before_colon = colon != std::string_view::npos && !name.empty() &&
                                      (name.back() == ' ' || name.back() == '\t') &&
                                      name.find_first_of(" \t") == name.find_last_not_of(" \t") + 1;
      if (space_before_colon) {
        warnings.push_back("header block of " + shown + ": the line \"" +
                           std::string(name.substr(0, name.find_last_not_of(" \t") + 1)) +
                           " :\" has white space before its colon, which no field line has (RFC 9112 5.1: clients "
                           "reject the response); the body is assumed to start there");
      } else {
        warnings.push_back("header block of " + shown +
                           " has no empty line; the body is assumed to start at the first "
                           "line that is not a header field");
      }
    }

    const std::size_t body_start = block.body_start;
    const std::size_t next = finder_.find(body_start);
    const std::size_t region_end = next == npos ? text_.size() : next;
    const std::string_view region = text_.substr(body_start, region_end - body_start);

    // Blocks before the final response of a transfer: drop them, note it.
    const int status = status_line.status;
    const bool connect_reply =
        status >= 200 && status < 300 &&
        ((transfer_.request && transfer_.request->method_line == "CONNECT") ||
         iequals(status_line.reason, "Connection established"));
    if (next != npos) {
      const char* kind = nullptr;
      if (status < 200) {
        kind = "interim response";
      } else if (connect_reply && all_space(region)) {
        kind = "proxy CONNECT response";
      } else if (status >= 300 && status < 400 && status != 304 && all_space(region)) {
        kind = "redirect response";
      } else if ((status == 401 || status == 407) && all_space(region)) {
        kind = "authentication challenge";
      }
      if (kind != nullptr) {
        transfer_.warnings.push_back(std::string("skipped ") + kind + " " + shown);
        if (!all_space(region)) absorb_after_interim(region, shown);
        return next;
      }
    }

    const bool head_request = transfer_.request && transfer_.request->method_line == "HEAD";
    bool dechunked = false;
    if (status_has_no_body(status) || head_request || connect_reply) {
      if (!all_space(region)) {
        warnings.push_back(std::to_string(region.size()) + " bytes after the " + shown +
                           " response (which has no body) ignored");
      }
    } else {
      dechunked = extract_body(region, response, warnings);
    }
    finish(std::move(response), std::move(warnings), dechunked);
    return region_end;
  }

  /// Bytes between an interim response and the next status line: on the wire, the body of a
  /// request that waited for 100 Continue; anything else is ignored.
  void absorb_after_interim(std::string_view region, const std::string& shown) {
    if (transfer_.request && transfer_.request_length_missing > 0 && !transfer_.request->body) {
      const std::size_t n = std::min(region.size(), transfer_.request_length_missing);
      transfer_.request->body = std::string(region.substr(0, n));
      transfer_.request_length_missing = 0;
      return;
    }
    transfer_.warnings.push_back(std::to_string(region.size()) + " bytes after the " + shown +
                                 " response ignored");
  }

  /// Decides where the body ends inside `region` (RFC 9112 §6.3 adapted to captures, see
  /// docs: next status line, Content-Length, trailers, end of capture), removes chunk
  /// framing and gzip where the bytes really carry them. Returns true when chunk framing
  /// was removed.
  bool extract_body(std::string_view region, Response& response,
                    std::vector<std::string>& warnings) {
    const Headers& headers = response.headers;
    const auto te = find_header(headers, "Transfer-Encoding");
    const auto ce = find_header(headers, "Content-Encoding");
    const bool encoded = ce && !trim_ows(*ce).empty() && !iequals(trim_ows(*ce), "identity");
    const auto length = content_length(headers);
    bool dechunked = false;

    if (te && list_has(*te, "chunked")) {
      // curl, HTTPie, Wireshark "Follow HTTP" hand over de-chunked bodies although the
      // header stays; only raw bytes and curl --raw still carry framing (RFC 9112 §7.1).
      if (auto d = http::dechunk(region)) {
        dechunked = true;
        response.body = std::move(d->body);
        if (!d->complete) {
          response.body_state = BodyState::truncated;
          warnings.push_back("chunked body ends before its last chunk");
        }
        const std::string_view extra = region.substr(std::min(d->consumed, region.size()));
        if (!all_space(extra)) {
          warnings.push_back(std::to_string(extra.size()) +
                             " bytes after the chunked body ignored");
        }
      }
    }

    if (!dechunked) {
      std::string_view body = region;
      if (length && !encoded && !te) {
        if (body.size() < *length) {
          if (body.empty()) {
            response.body_state = BodyState::absent;
            warnings.push_back("no body captured although Content-Length is " +
                               std::to_string(*length));
          } else {
            response.body_state = BodyState::truncated;
            warnings.push_back("body has " + std::to_string(body.size()) + " of " +
                               std::to_string(*length) + " bytes announced by Content-Length");
          }
        } else if (body.size() > *length) {
          const std::string_view rest = body.substr(*length);
          if (*length == 0 || all_space(rest) || holds_one_json_value(body.substr(0, *length))) {
            warnings.push_back(std::to_string(rest.size()) +
                               " bytes after Content-Length ignored");
            body = body.substr(0, *length);
          } else {
            warnings.push_back("body has " + std::to_string(body.size()) +
                               " bytes but Content-Length says " + std::to_string(*length) +
                               ": re-rendered by the capture tool, keeping all of it");
          }
        }
      } else if (body.empty() && length && *length > 0) {
        response.body_state = BodyState::absent;
        warnings.push_back("no body captured although Content-Length is " +
                           std::to_string(*length));
      } else if (unframed_body_absent(response, body)) {
        response.body_state = BodyState::absent;
        warnings.push_back("no body captured and no Content-Length or Transfer-Encoding to say it is empty "
                           "(a curl -D header file alone?)");
      }
      if (const auto trailer = find_header(headers, "Trailer"); trailer && !body.empty()) {
        body = strip_trailers(body, *trailer, warnings);
      }
      response.body = keep_for_limit(body, response.headers, max_body_);
    }

    decode_body(response, warnings, max_body_);
    return dechunked;
  }

  void finish(Response response, std::vector<std::string> warnings, bool dechunked) {
    Exchange ex;
    ex.source = source_name(name_, exchanges_.size() + 1);
    if (transfer_.request) {
      ex.format = CaptureFormat::http_conversation;
    } else {
      ex.format = dechunked ? CaptureFormat::raw_http : CaptureFormat::curl_i;
    }
    ex.request = std::move(transfer_.request);
    ex.response = std::move(response);
    ex.warnings = std::move(transfer_.warnings);
    for (std::string& w : warnings) ex.warnings.push_back(std::move(w));
    exchanges_.push_back(std::move(ex));
    transfer_ = Transfer{};
  }

  void flush_request_only() {
    Response response;
    response.http_version = "";
    response.status = 0;
    response.body_state = BodyState::not_captured;
    response.transport_captured = false;
    finish(std::move(response), {"request without a response: response not captured"}, false);
  }

  std::string_view text_;
  std::string_view name_;
  std::size_t max_body_;  ///< `--max-body`: gzip bodies inflate at most this far
  bool conversation_;
  NextMessageFinder finder_;
  Transfer transfer_;  ///< request and notes waiting for the final response
  std::vector<Exchange> exchanges_;
};

}  // namespace

bool sniff_http_text(std::string_view text) {
  if (text.substr(0, 5) == "HTTP/") {
    return http::parse_status_line(line_at(text, 0).content).has_value();
  }
  if (text.empty() || text.front() < 'A' || text.front() > 'Z') return false;
  return parse_request_line(line_at(text, 0).content).has_value();
}

std::expected<std::vector<Exchange>, CaptureError> read_http_text(std::string_view bytes,
                                                                  std::string_view name,
                                                                  const CaptureOptions& options) {
  HttpTextReader reader(bytes, name, options.max_body);
  std::vector<Exchange> exchanges = reader.run();
  if (exchanges.empty()) {
    return std::unexpected(CaptureError{"no HTTP message found in the text capture"});
  }
  return exchanges;
}

}  // namespace mcptriage::capture
