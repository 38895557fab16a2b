// curl -v reader: `> ` request and `< ` response header lines from curl's stderr, the body from
// stdout (a separate file, or appended when 2>&1 went into one file). shared/capture-formats.md §2.2.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "capture/body.hpp"
#include "capture/readers.hpp"
#include "http/tokens.hpp"
#include "json/dom.hpp"
#include "mcptriage/http.hpp"

namespace mcptriage::capture {

namespace {

constexpr std::size_t npos = std::string_view::npos;
constexpr std::size_t kSniffLimit = 64 * 1024;

using http::content_length;
using http::parse_field_line;
using http::trim_ows;

/// Characters of curl's progress meter rows ("  0     0    0 ... --:--:--     0", "327k").
bool is_progress_char(char c) {
  return (c >= '0' && c <= '9') || c == ' ' || c == '.' || c == ':' || c == '-' || c == 'k' || c == 'M' ||
         c == 'G' || c == 'T' || c == 'P';
}

/// One of the two title lines curl prints above its progress meter
/// (`  % Total    % Received % Xferd  Average Speed ...`, `   Dload  Upload   Total ...`).
bool is_meter_title(std::string_view line) {
  if (line.find("% Total") != npos && line.find("% Received") != npos) return true;
  return trim_ows(line).starts_with("Dload") && line.find("Upload") != npos;
}

/// Removes curl's progress meter from a stderr line: `\r`-separated redraws of the meter, and a
/// meter row that the next info line was glued to (`...     0*   Trying 127.0.0.1...`).
std::string_view strip_progress(std::string_view line) {
  if (is_meter_title(line)) return {};
  std::string_view kept;
  std::size_t start = 0;
  while (start <= line.size()) {
    const std::size_t cr = line.find('\r', start);
    std::string_view seg = line.substr(start, cr == npos ? npos : cr - start);
    std::size_t i = 0;
    while (i < seg.size() && is_progress_char(seg[i])) ++i;
    const bool meter = i >= 40 && seg.substr(0, i).find("--:--:--") != npos;
    const bool meter_row = i >= 40 && seg.substr(0, i).find(':') != npos;
    if (i == seg.size() && (meter || meter_row || seg.find_first_not_of(' ') == npos)) {
      // a whole meter row (or nothing): drop it
    } else if (meter || meter_row) {
      kept = seg.substr(i);  // a row with the next line glued on
    } else {
      kept = seg;
    }
    if (cr == npos) break;
    start = cr + 1;
  }
  return kept;
}

/// Where curl's progress meter starts in a body line of a 2>&1 capture: its last row
/// (`\r100  5075  100  5075 ... 31.8M`) lands mid-body when the body is longer than stdout's
/// buffer, from a `\r` to the end of the line. npos when `line` does not end with meter rows.
std::size_t meter_tail(std::string_view line) {
  for (std::size_t cr = line.find('\r'); cr != npos; cr = line.find('\r', cr + 1)) {
    const std::string_view tail = line.substr(cr);
    if (strip_progress(tail).empty() && trim_ows(tail).size() >= 40) return cr;
  }
  return npos;
}

/// One line of the log: its text without the line end, and where the raw bytes are.
struct Line {
  std::size_t begin = 0;  ///< first byte
  std::size_t end = 0;    ///< one past the last content byte (before CR/LF)
  std::size_t next = 0;   ///< first byte of the next line
};

/// A `{ [N bytes data]` / `} [N bytes data]` placeholder (src/tool_cb_dbg.c).
bool is_data_marker(std::string_view s) {
  return (s.starts_with("{ [") || s.starts_with("} [")) && s.find("bytes data]") != npos;
}

struct ResponseBlock {
  http::StatusLine status;
  Headers headers;
  bool ended = false;  ///< the blank `< ` line was seen
};

struct Transfer {
  std::optional<Request> request;
  bool request_ended = false;
  std::vector<ResponseBlock> responses;
  std::string body;           ///< unprefixed bytes after the final header block
  bool body_seen = false;
  bool data_in = false;       ///< a `{ [N bytes data]` marker: curl received body bytes
  std::string error;          ///< `curl: (N) ...` seen while this transfer was current
  /// Times a body without a usable Content-Length was parsed to see whether a glued curl line
  /// ends it (CurlVerboseReader::body_complete_with): bounded, so a body full of such lines
  /// stays linear.
  mutable unsigned json_checks = 0;
};

/// True when the body bytes can be measured against Content-Length (curl shows the header as
/// received, so a decoded or de-chunked body does not match it).
bool length_is_usable(const Headers& h) {
  return !find_header(h, "content-encoding") && !find_header(h, "transfer-encoding");
}

bool body_expected(const Transfer& t, const ResponseBlock& final) {
  const int s = final.status.status;
  if (s < 200 || s == 204 || s == 304) return false;
  if (t.request && t.request->method_line == "HEAD") return false;
  if (t.data_in) return true;
  if (auto n = content_length(final.headers); n && *n > 0) return true;
  if (find_header(final.headers, "transfer-encoding")) return true;
  auto ct = find_header(final.headers, "content-type");
  return ct && http::media_type_is(*ct, "text/event-stream");
}

/// The next line of `text` from `at` without its line end (LF or CRLF); `at` moves past it.
std::string_view next_line(std::string_view text, std::size_t& at) {
  std::string_view line = take_line(text, at);
  if (line.ends_with('\r')) line.remove_suffix(1);
  return line;
}

/// Length of the copy of `block` at the start of `text`, as `curl -i` writes it to stdout: the
/// same status line, the same field lines in the same order, a blank line (RFC 9112 §2.1).
/// 0 when `text` does not start with that copy, or when the block was cut short.
std::size_t block_copy_length(std::string_view text, const ResponseBlock& block) {
  if (!block.ended || !text.starts_with("HTTP/")) return 0;
  std::size_t at = 0;
  const auto st = http::parse_status_line(next_line(text, at));
  if (!st || st->version != block.status.version || st->status != block.status.status ||
      st->reason != block.status.reason) {
    return 0;
  }
  for (const Header& h : block.headers) {
    if (at >= text.size()) return 0;
    const auto f = parse_field_line(next_line(text, at));
    if (!f || f->name != h.name || f->value != h.value) return 0;
  }
  if (at >= text.size() || !next_line(text, at).empty()) return 0;
  return at;
}

/// Length of the copies of `t`'s response header blocks at the start of `text` (curl -vi writes
/// each block to stdout before the body: interim ones too), block by block in order; a block
/// that was not copied is passed over. 0 when `text` starts with no copy.
std::size_t header_copy_length(std::string_view text, const Transfer& t) {
  std::size_t at = 0;
  for (const ResponseBlock& b : t.responses) at += block_copy_length(text.substr(at), b);
  return at;
}

class CurlVerboseReader {
 public:
  CurlVerboseReader(std::string_view name, const CaptureOptions& options) : name_(name), options_(options) {}

  std::expected<std::vector<Exchange>, CaptureError> read(std::string_view text) {
    scan(text);
    // Drop tunnels (CONNECT) and followed redirects: each hop is its own transfer in -v output.
    std::vector<std::string> carried;
    std::vector<Transfer> kept;
    for (std::size_t i = 0; i < transfers_.size(); ++i) {
      Transfer& t = transfers_[i];
      const bool last = i + 1 == transfers_.size();
      if (t.request && t.request->method_line == "CONNECT" && !last) {
        carried.push_back("proxy CONNECT " + t.request->target + " dropped (a tunnel, not the exchange)");
        continue;
      }
      const ResponseBlock* fin = final_block(t);
      if (fin && fin->status.status >= 300 && fin->status.status < 400 && !last &&
          find_header(fin->headers, "location") && !t.body_seen) {
        carried.push_back("redirect " + std::to_string(fin->status.status) + " to " +
                          std::string(*find_header(fin->headers, "location")) + " followed (curl -L)");
        continue;
      }
      if (!carried.empty()) {
        warnings_for_.emplace_back(kept.size(), std::move(carried));
        carried.clear();
      }
      kept.push_back(std::move(t));
    }
    if (kept.empty()) {
      return std::unexpected(CaptureError{"curl -v log without a request or response (no `> ` or `< ` lines)"});
    }
    assign_separate_body(kept);
    std::vector<Exchange> out;
    out.reserve(kept.size());
    for (std::size_t i = 0; i < kept.size(); ++i) out.push_back(to_exchange(kept[i], i + 1));
    for (auto& [index, notes] : warnings_for_) {
      for (auto& w : notes) out[index].warnings.push_back(std::move(w));
    }
    return out;
  }

 private:
  std::string_view name_;
  const CaptureOptions& options_;
  std::vector<Transfer> transfers_;
  std::vector<std::pair<std::size_t, std::vector<std::string>>> warnings_for_;
  bool connecting_ = false;  ///< a `* Trying` line came after the last transfer's response

  static const ResponseBlock* final_block(const Transfer& t) {
    for (auto it = t.responses.rbegin(); it != t.responses.rend(); ++it) {
      if (it->status.status >= 200 || it == t.responses.rbegin()) return &*it;
    }
    return nullptr;
  }

  Transfer& current() {
    if (transfers_.empty()) transfers_.emplace_back();
    return transfers_.back();
  }

  /// True when the current transfer's final header block has ended: unprefixed text is body.
  bool in_body() const {
    if (transfers_.empty()) return false;
    const Transfer& t = transfers_.back();
    return !t.responses.empty() && t.responses.back().ended && t.responses.back().status.status >= 200;
  }

  void scan(std::string_view text) {
    std::size_t pos = 0;
    while (pos < text.size()) {
      const std::size_t lf = text.find('\n', pos);
      Line line{pos, lf == npos ? text.size() : lf, lf == npos ? text.size() : lf + 1};
      std::string_view raw = text.substr(line.begin, line.end - line.begin);
      std::string_view content = raw;
      while (!content.empty() && content.back() == '\r') content.remove_suffix(1);
      const std::string_view clean = in_body() ? curl_text_in_body(content) : strip_progress(content);
      if (in_body() && clean.empty() && !content.empty()) {
        // a progress meter row or a note of curl's: not body
      } else if (!handle_prefixed(clean)) {
        if (clean.starts_with("curl: (") && (!in_body() || connecting_ || body_done())) {
          note_error(trim_ows(clean));
        } else if (in_body()) {
          // Body bytes exactly as written; a `* ` line glued to a body without a final newline ends
          // it, and so does the meter's last row (with its own line end) written into the body.
          std::size_t glued = meter_tail(content);
          for (std::string_view tail : {"* Connection #", "* Closing connection", "* shutting down connection"}) {
            const std::size_t at = raw.find(tail);
            if (at != npos && at > 0 && at < glued) glued = at;
          }
          Transfer& t = current();
          // The next transfer's first line of curl's, glued to a body without a final newline
          // (`>f 2>&1` with --next): cut only when the body before it is complete (trial 6).
          for (std::string_view tail : {"  % Total    % Received % Xferd", "* Found bundle for host",
                                        "* Hostname ", "* Re-using existing connection", "Note: "}) {
            const std::size_t at = raw.find(tail);
            if (at != npos && at > 0 && at < glued && body_complete_with(t, raw.substr(0, at))) glued = at;
          }
          t.body_seen = true;
          if (glued != npos) {
            t.body.append(raw.substr(0, glued));
          } else {
            t.body.append(text.substr(line.begin, line.next - line.begin));
          }
        }
      }
      pos = line.next;
    }
  }

  /// curl's closing `curl: (N) message` line (src/tool_operate.c): it belongs to the current
  /// transfer, or to a transfer of its own when it failed before sending anything (`curl: (7)
  /// Failed to connect`, `curl: (6) Could not resolve host`): no transfer yet, or a new
  /// connection was being made.
  void note_error(std::string_view error) {
    if (transfers_.empty() || connecting_) transfers_.emplace_back();
    connecting_ = false;
    transfers_.back().error = std::string(error);
  }

  /// A line met after the final header block, as curl wrote it: empty when it is curl's and no
  /// body (a meter row or title, a `Note: `/`Warning: ` line between transfers), the glued line
  /// when a meter redraw starts it (`\r  0 ... --:--:--     0> POST /b HTTP/1.1`), else `line`.
  std::string_view curl_text_in_body(std::string_view line) const {
    if (is_meter_title(line)) {
      // The title glued to the end of a complete body (--next, `>f 2>&1`): the body is kept
      // and the title cut off it in scan().
      const std::size_t at = line.find("  % Total    % Received % Xferd");
      if (at != npos && at > 0 && line.substr(0, at).find_first_not_of(" \r") != npos &&
          body_complete_with(transfers_.back(), line.substr(0, at))) {
        return line;
      }
      return {};
    }
    if (line.starts_with('\r')) {
      // Meter redraws start with CR; in 2>&1 output the last one comes after the headers.
      const std::string_view rest = strip_progress(line);
      if (rest.empty() || rest.starts_with("* ") || rest.starts_with("> ") || rest.starts_with("< ")) return rest;
    }
    if ((line.starts_with("Note: ") || line.starts_with("Warning: ")) && body_done()) return {};
    return line;
  }

  /// True when the current transfer's body has not begun or has its Content-Length: a line of
  /// curl's own (src/tool_msgs.c notes, the closing `curl: (N)`) can come there, not in the
  /// middle of a body.
  bool body_done() const {
    const Transfer& t = transfers_.back();
    if (!t.body_seen) return true;
    const ResponseBlock& fin = t.responses.back();
    const auto n = content_length(fin.headers);
    return n && length_is_usable(fin.headers) && t.body.size() >= *n;
  }

  /// True when the current transfer's body followed by `more` has all of its Content-Length,
  /// or (without a usable one) is one complete JSON value.
  bool body_complete_with(const Transfer& t, std::string_view more) const {
    const ResponseBlock& fin = t.responses.back();
    if (const auto n = content_length(fin.headers); n && length_is_usable(fin.headers)) {
      return t.body.size() + more.size() == *n;
    }
    // Parsing the body so far for every such line would be quadratic on a body made of them
    // (hostile input): a few tries per transfer, the real case needs one.
    constexpr unsigned kJsonChecks = 4;
    if (t.json_checks >= kJsonChecks) return false;
    ++t.json_checks;
    const std::string whole = t.body + std::string(more);
    return json::is_one_value(whole);
  }

  /// Handles a `* `, `> `, `< ` or data-marker line; false for anything else.
  bool handle_prefixed(std::string_view s) {
    if (s == "*" || s.starts_with("* ")) {
      // `*   Trying 127.0.0.1:3001...`: a connection for a transfer that has not sent its request.
      if (trim_ows(s.substr(1)).starts_with("Trying ") && (transfers_.empty() || in_body())) connecting_ = true;
      return true;
    }
    if (is_data_marker(s)) {
      if (s.front() == '{' && !transfers_.empty()) transfers_.back().data_in = true;
      return true;
    }
    if (s == ">" || s.starts_with("> ")) {
      std::string_view rest = s.size() > 2 ? s.substr(2) : std::string_view();
      handle_request_line(trim_ows(rest));
      return true;
    }
    if (s == "<" || s.starts_with("< ")) {
      std::string_view rest = s.size() > 2 ? s.substr(2) : std::string_view();
      handle_response_line(trim_ows(rest));
      return true;
    }
    return false;
  }

  void handle_request_line(std::string_view rest) {
    const bool starts_transfer = transfers_.empty() || transfers_.back().request_ended ||
                                 !transfers_.back().responses.empty() || !transfers_.back().request;
    if (starts_transfer && !rest.empty()) {
      // `METHOD target HTTP/x` (RFC 9112 §3); curl prints it first.
      const std::size_t sp1 = rest.find(' ');
      const std::size_t sp2 = sp1 == npos ? npos : rest.find(' ', sp1 + 1);
      if (sp1 != npos && sp2 != npos && rest.substr(sp2 + 1).starts_with("HTTP/")) {
        connecting_ = false;
        Transfer t;
        t.request = Request{};
        t.request->method_line = std::string(rest.substr(0, sp1));
        t.request->target = std::string(rest.substr(sp1 + 1, sp2 - sp1 - 1));
        transfers_.push_back(std::move(t));
        return;
      }
    }
    if (transfers_.empty() || !transfers_.back().request) return;
    Transfer& t = transfers_.back();
    if (rest.empty()) {
      t.request_ended = true;
      return;
    }
    if (auto h = parse_field_line(rest); h && !t.request_ended) t.request->headers.push_back(std::move(*h));
  }

  void handle_response_line(std::string_view rest) {
    if (auto st = http::parse_status_line(rest)) {
      // A status line after a complete final block (or with no transfer) starts a new transfer.
      if (transfers_.empty() || (in_body() && transfers_.back().body_seen)) transfers_.emplace_back();
      Transfer& t = transfers_.back();
      t.responses.push_back(ResponseBlock{std::move(*st), {}, false});
      return;
    }
    if (transfers_.empty() || transfers_.back().responses.empty()) return;
    ResponseBlock& block = transfers_.back().responses.back();
    if (rest.empty()) {
      block.ended = true;
      return;
    }
    if (auto h = parse_field_line(rest); h && !block.ended) block.headers.push_back(std::move(*h));
  }

  /// The body saved apart (curl's stdout) belongs to the transfers that show no body; several
  /// bodies are split by their Content-Length when those add up exactly.
  void assign_separate_body(std::vector<Transfer>& kept) {
    if (!options_.separate_body) return;
    const std::string_view body = *options_.separate_body;
    bool any_inline = false;
    for (const Transfer& t : kept) any_inline = any_inline || t.body_seen;
    if (any_inline) {
      separate_note_ = "the separate body file was ignored: the log holds the body itself";
      return;
    }
    std::vector<std::size_t> wanting;
    for (std::size_t i = 0; i < kept.size(); ++i) {
      const ResponseBlock* fin = final_block(kept[i]);
      if (fin && body_expected(kept[i], *fin)) wanting.push_back(i);
    }
    if (wanting.empty()) {
      std::size_t copies = 0;
      for (const Transfer& t : kept) copies += header_copy_length(body.substr(copies), t);
      if (copies != body.size()) {
        separate_note_ = "the separate body file was ignored: no response here has a body";
      }
      return;
    }
    // Without --compressed curl writes the bytes as received, so a Content-Encoding'd body's
    // Content-Length counts them: when the lengths cover the file exactly, split by them too
    // (each piece is decoded in to_exchange; trial 6).
    if (split_by_length(body, kept, wanting, false) || split_by_length(body, kept, wanting, true)) return;
    if (wanting.size() > 1) {
      separate_note_ = "the separate body file holds the bodies of " + std::to_string(wanting.size()) +
                       " responses that cannot be told apart: all of it was given to the last";
    }
    Transfer& last = kept[wanting.back()];
    last.body = std::string(body);
    last.body_seen = true;
  }

  /// Splits the separate body file among the transfers `wanting` a body, in order: each takes
  /// the copies of its header blocks when curl -i wrote them (removed in to_exchange) and its
  /// Content-Length bytes; a bodiless transfer's copy is passed over. False, with nothing
  /// given, unless every length is usable and the pieces cover the file exactly.
  static bool split_by_length(std::string_view body, std::vector<Transfer>& kept,
                              const std::vector<std::size_t>& wanting, bool encoded_lengths) {
    std::vector<std::pair<std::size_t, std::string_view>> pieces;
    std::size_t at = 0;
    std::size_t w = 0;
    for (std::size_t i = 0; i < kept.size(); ++i) {
      const std::size_t start = at;
      at += header_copy_length(body.substr(at), kept[i]);
      if (w == wanting.size() || wanting[w] != i) continue;
      ++w;
      const ResponseBlock* fin = final_block(kept[i]);
      const auto n = content_length(fin->headers);
      const bool usable = encoded_lengths ? !find_header(fin->headers, "transfer-encoding")
                                          : length_is_usable(fin->headers);
      if (!n || !usable || *n > body.size() - at) return false;
      at += *n;
      pieces.emplace_back(i, body.substr(start, at - start));
    }
    if (at != body.size()) return false;
    for (auto& [i, piece] : pieces) {
      kept[i].body = std::string(piece);
      kept[i].body_seen = true;
    }
    return true;
  }

  std::string separate_note_;

  Exchange to_exchange(Transfer& t, std::size_t index) {
    Exchange ex;
    ex.source = source_name(name_, index);
    ex.format = CaptureFormat::curl_v;
    ex.request = std::move(t.request);
    if (ex.request && !t.request_ended) ex.warnings.push_back("the request header block was cut short");
    Response& r = ex.response;
    r.transport_captured = true;
    const ResponseBlock* fin = final_block(t);
    if (!fin) {
      r.status = 0;
      r.body_state = BodyState::not_captured;
      ex.warnings.push_back("no response in the curl -v log" + (t.error.empty() ? std::string() : ": " + t.error));
      return ex;
    }
    for (const ResponseBlock& b : t.responses) {
      if (&b == fin) break;
      ex.warnings.push_back("interim " + std::to_string(b.status.status) + " " + b.status.reason + " dropped");
    }
    r.http_version = fin->status.version;
    r.status = fin->status.status;
    r.reason = fin->status.reason;
    r.headers = fin->headers;
    if (!fin->ended) ex.warnings.push_back("the response header block was cut short");
    if (!separate_note_.empty() && index == 1) ex.warnings.push_back(separate_note_);
    if (!fin->ended && !t.body_seen) {
      // The log ends inside the header block (`curl: (28)` mid-headers): nothing says whether a
      // body was coming, so it was not captured (docs/security.md), as for raw HTTP (trial 6).
      r.body_state = BodyState::absent;
      if (!t.error.empty()) ex.warnings.push_back(t.error);
      return ex;
    }
    if (!t.body_seen) {
      if (body_expected(t, *fin)) {
        r.body_state = BodyState::absent;
        ex.warnings.push_back(
            "the body is not in this file: curl -v writes it to stdout; give it with --body FILE, or "
            "name the files X-stderr.txt and X-stdout.txt");
      }
      return ex;
    }
    if (const std::size_t copy = header_copy_length(t.body, t); copy > 0) {
      t.body.erase(0, copy);
      ex.warnings.push_back("the copy of the response headers before the body (curl -i) removed");
    }
    r.body = std::move(t.body);
    if (find_header(r.headers, "transfer-encoding")) {
      if (auto d = http::dechunk(r.body); d && d->consumed == r.body.size()) {
        r.body = std::move(d->body);
        if (!d->complete) r.body_state = BodyState::truncated;
        ex.warnings.push_back("chunk framing removed (curl --raw)");
      }
    }
    // gzip bytes (curl without --compressed) are left to the body step, not measured here.
    if (auto n = content_length(r.headers); n && length_is_usable(r.headers) && !http::looks_gzip(r.body)) {
      const auto want = *n;
      if (r.body.size() < want) {
        r.body_state = BodyState::truncated;
      } else if (r.body.size() > want) {
        if (json::is_one_value(std::string_view(r.body).substr(0, want))) {
          ex.warnings.push_back(std::to_string(r.body.size() - want) +
                                " byte(s) after Content-Length ignored (not body)");
          r.body.resize(want);
        } else {
          ex.warnings.push_back("the body is longer than its Content-Length (" + std::to_string(r.body.size()) +
                                " > " + std::to_string(want) + "): kept whole");
        }
      }
    }
    decode_body(r, ex.warnings, options_.max_body);
    return ex;
  }
};

}  // namespace

bool sniff_curl_verbose(std::string_view text) {
  const std::string_view head = text.substr(0, kSniffLimit);
  const std::size_t lf = head.find('\n');
  std::string_view first = head.substr(0, lf);
  while (!first.empty() && first.back() == '\r') first.remove_suffix(1);
  const bool progress = first.starts_with("% Total") && first.find("% Received") != npos;
  const bool note = first.starts_with("Note: ") || first.starts_with("Warning: ");
  const bool prefixed = first.starts_with("* ") || first.starts_with("> ") || first.starts_with("< ");
  if (!progress && !note && !prefixed) return false;
  if (first.starts_with("> ") || first.starts_with("< ")) return true;
  // Confirm with a later `* `, `> ` or `< ` line (a bare SSE comment or text would not have one).
  for (std::size_t pos = lf == npos ? head.size() : lf + 1; pos < head.size();) {
    const std::string_view clean = strip_progress(take_line(head, pos));
    if (clean.starts_with("* ") || clean.starts_with("> ") || clean.starts_with("< ")) return true;
  }
  return false;
}

std::expected<std::vector<Exchange>, CaptureError> read_curl_verbose(std::string_view bytes, std::string_view name,
                                                                     const CaptureOptions& options) {
  CurlVerboseReader reader(name, options);
  return reader.read(bytes);
}

}  // namespace mcptriage::capture
