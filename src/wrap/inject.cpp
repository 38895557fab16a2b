// `mcptriage wrap --inject` (inject.hpp).
#include "wrap/inject.hpp"

#include <fmt/format.h>

#include <utility>

namespace mcptriage::wrap {
namespace {

std::string call_name(std::string_view method, std::string_view tool) {
  if (method == "tools/call" && !tool.empty()) return "tools/call " + std::string(tool);
  return std::string(method);
}

std::string seconds(std::int64_t ns) { return fmt::format("{:.1f} s", static_cast<double>(ns) / 1e9); }

}  // namespace

std::string garbage_line_text(std::string_view rule) {
  return "mcptriage wrap: a line that is no JSON-RPC message (--inject " + std::string(rule) + ")";
}

Injector::Injector(std::vector<proxy::Rule> rules) {
  for (proxy::Rule& r : rules) {
    if (r.action == proxy::Action::slow_start) {
      if (!slow_start_) slow_start_ = std::move(r);
    } else {
      rules_.push_back(std::move(r));
    }
  }
  counts_.assign(rules_.size(), 0);
}

void Injector::see_request(const proxy::Peek& m, std::int64_t unix_ns) {
  for (Fault& f : faults_) {
    if (!f.next.empty()) continue;
    const std::string after = seconds(unix_ns - f.unix_ns);
    if (m.kind == proxy::MessageKind::request && m.method == f.method && m.tool_name == f.tool) {
      f.next = "sent the same call again " + after + " after";
    } else if (m.kind == proxy::MessageKind::request) {
      f.next = "sent " + call_name(m.method, m.tool_name) + " " + after + " after (not the same call)";
    } else {
      f.next = "sent " + m.method + " " + after + " after";
    }
  }
}

Decision Injector::on_host_line(std::string_view line, std::int64_t unix_ns) {
  Decision d;
  const proxy::Peek m = proxy::peek_message(line);
  std::lock_guard lock(mu_);
  if (m.kind == proxy::MessageKind::request || m.kind == proxy::MessageKind::notification) see_request(m, unix_ns);
  proxy::RequestFacts facts;
  facts.http_method = "POST";
  facts.message = m;
  if (m.kind == proxy::MessageKind::request) {
    facts.call_number = ++calls_;
    if (m.method == "initialize") init_id_ = m.id_json;
  }
  facts.protocol_version = !m.protocol_version.empty() && m.method != "initialize" ? m.protocol_version : version_;
  const proxy::Rule* rule = proxy::match_rule(rules_, facts);
  if (rule == nullptr) return d;
  ++counts_[static_cast<std::size_t>(rule - rules_.data())];
  d.rule = rule;
  const std::string tag = "injected by mcptriage wrap (--inject " + rule->text + "): ";
  switch (rule->action) {
    case proxy::Action::jsonrpc_error:
    case proxy::Action::tool_error:
    case proxy::Action::input_required:
      d.forward = false;
      d.reply = proxy::build_injected(*rule, facts, "", d.notes, "mcptriage wrap").body;
      d.warning = tag + "the server never saw this request; the wrapper wrote this response to the host";
      break;
    case proxy::Action::delay:
      d.hold = rule->delay;
      d.warning = tag + fmt::format("the request was held {} ms before it was passed to the server (the host's "
                                    "later lines waited behind it); the response is the server's",
                                    rule->delay.count());
      break;
    case proxy::Action::drop:
      d.forward = false;
      d.warning = tag + "the wrapper did not pass this request to the server, and nothing answered it";
      break;
    case proxy::Action::garbage_line:
      d.garbage = garbage_line_text(rule->text);
      d.warning = tag + "the wrapper wrote a line that is no JSON-RPC message to the host before passing this "
                        "request on; the response is the server's";
      break;
    case proxy::Action::exit:
      d.forward = false;
      d.exit_code = rule->exit_code;
      d.warning = tag + "the wrapper did not pass this request to the server and ended the server on it";
      break;
    case proxy::Action::status:
    case proxy::Action::cut_after_events:
    case proxy::Action::session_expired:
    case proxy::Action::unauthorized:
    case proxy::Action::slow_start:
      // Refused by parse_rule(Transport::stdio), and never matched (slow-start): forwarded.
      d.rule = nullptr;
      return d;
  }
  faults_.push_back(Fault{rule->text, m.method, m.tool_name, unix_ns, ""});
  return d;
}

void Injector::on_server_line(std::string_view line) {
  std::lock_guard lock(mu_);
  if (init_id_.empty()) return;
  const proxy::Peek m = proxy::peek_message(line);
  if (m.kind != proxy::MessageKind::response || !proxy::same_id(m.id_json, init_id_)) return;
  if (!m.result_protocol_version.empty()) version_ = m.result_protocol_version;
  init_id_.clear();
}

bool Injector::wants_server_lines() const {
  std::lock_guard lock(mu_);
  return !init_id_.empty();
}

std::vector<std::string> Injector::behaviour(std::int64_t unix_ns, std::string_view end) {
  std::lock_guard lock(mu_);
  std::vector<std::string> out;
  for (const Fault& f : faults_) {
    const std::string what =
        f.next.empty() ? "sent nothing more; " + std::string(end) + " " + seconds(unix_ns - f.unix_ns) + " after" : f.next;
    out.push_back("after --inject " + f.rule + " on " + call_name(f.method, f.tool) + ": the host " + what);
  }
  return out;
}

std::vector<std::pair<std::string, std::size_t>> Injector::applied() const {
  std::lock_guard lock(mu_);
  std::vector<std::pair<std::string, std::size_t>> out;
  for (std::size_t i = 0; i < rules_.size(); ++i) out.emplace_back(rules_[i].text, counts_[i]);
  return out;
}

}  // namespace mcptriage::wrap
