// The CLI's input pipeline (pipeline.hpp): one producer reads the inputs (small files are left to
// the workers; JSON Lines logs are cut into blocks at line ends), `jobs` workers read captures and
// classify, and the calling thread takes the results in order. With one job everything runs on
// the calling thread, one unit after the other.
#include "cli/pipeline.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

#include "cli/read_limited.hpp"
#include "json/dom.hpp"
#include "mcptriage/session.hpp"

namespace mcptriage::cli {

namespace {

/// One piece of work, in input order.
struct Unit {
  enum class Kind {
    file,   ///< a whole file the worker reads itself (`path`)
    bytes,  ///< a whole input already read (`data`)
    block,  ///< whole lines of a JSON Lines log (`data`, kept for the consumer)
    error,  ///< the input failed (`error`)
    group,  ///< consecutive small files (`parts`, each a `file` unit), processed and taken in order
  } kind = Kind::file;
  std::vector<std::unique_ptr<Unit>> parts;  ///< a group's files
  std::size_t input = 0;
  std::string data;
  bool last_block = false;  ///< the log's final block (possibly empty)
  std::size_t first_line = 0;  ///< lines of the log before this block (line numbers in details)
  std::shared_ptr<const ContextFlags> flags;  ///< a log's context, read once for all its blocks
  // Results.
  std::optional<std::string> error;
  std::vector<Record> records;
  std::size_t exchanges = 0;
  bool self_contained = true;
  bool wrapped = false;
  std::size_t consumed = 0;        ///< a block read up to here only (LinesBlock::consumed), 0: all of it
  std::size_t consumed_lines = 0;
  std::vector<std::size_t> skip_lines;  ///< lines of `data` to read as blank (a carry's)
  std::vector<std::size_t> carry_skip;  ///< LinesBlock::carry_skip
  bool done = false;
  std::size_t weight = 0;  ///< what it counts in the queue's byte budget, fixed when queued

  /// What it counts in the queue's byte budget: its bytes, and a block of a log counts as a
  /// full block whatever its size, as its records take memory by the line (kBlockLines).
  std::size_t size_now(std::size_t block_size) const {
    if (kind == Kind::group) {
      std::size_t sum = 0;
      for (const auto& part : parts) sum += part->size_now(block_size);
      return sum;
    }
    return (kind == Kind::block ? std::max(data.size(), block_size) : data.size()) + 4096;
  }
};

std::string errno_text(int err) { return std::strerror(err); }

/// Line ends in `text`. memchr steps over a line at a time; std::count compared every byte and
/// cost a tenth of a one-job run (callgrind, docs/performance.md).
std::size_t count_newlines(std::string_view text) {
  std::size_t n = 0;
  const char* p = text.data();
  const char* const end = p + text.size();
  while (p != end) {
    const void* hit = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
    if (hit == nullptr) break;
    ++n;
    p = static_cast<const char*>(hit) + 1;
  }
  return n;
}

/// Lines in a block of a JSON Lines log, at most (Pipeline::produce_stream).
constexpr std::size_t kBlockLines = 1024;

/// Where a block that starts at `start` ends: after its kBlockLines-th line end, or at `end`
/// when [start, end) holds fewer lines.
std::size_t line_cut(std::string_view text, std::size_t start, std::size_t end) {
  const char* p = text.data() + start;
  const char* const stop = text.data() + end;
  for (std::size_t n = 0; n < kBlockLines; ++n) {
    const void* hit = std::memchr(p, '\n', static_cast<std::size_t>(stop - p));
    if (hit == nullptr) return end;
    p = static_cast<const char*>(hit) + 1;
    if (p == stop) return end;
  }
  return static_cast<std::size_t>(p - text.data());
}

/// The last line end in `text`, or npos. glibc's memrchr: std::string::rfind compares a byte at a
/// time, and a block that ends inside a long line (a 500 KB tool output) is scanned back whole.
std::size_t last_newline(std::string_view text) {
  const void* hit = ::memrchr(text.data(), '\n', text.size());
  return hit == nullptr ? std::string::npos : static_cast<std::size_t>(static_cast<const char*>(hit) - text.data());
}

/// Appends up to `want` bytes read from `fd` to `buf`. Returns false on a read error (`err` set);
/// `eof` is set when the input ended.
bool read_more(int fd, std::string& buf, std::size_t want, bool& eof, int& err) {
  const std::size_t old = buf.size();
  bool ok = true;
  buf.resize_and_overwrite(old + want, [&](char* p, std::size_t) {
    std::size_t got = 0;
    while (got < want) {
      const ssize_t n = ::read(fd, p + old + got, want - got);
      if (n < 0) {
        if (errno == EINTR) continue;
        err = errno;
        ok = false;
        break;
      }
      if (n == 0) {
        eof = true;
        break;
      }
      got += static_cast<std::size_t>(n);
    }
    return old + got;
  });
  return ok;
}

class Pipeline {
 public:
  Pipeline(const std::vector<PipelineInput>& inputs, const PipelineOptions& options, const FlagsFor& flags_for,
           const RecordsOf& records_of, const std::function<void(Batch&&)>& consume)
      : inputs_(inputs),
        options_(options),
        flags_for_(flags_for),
        records_of_(records_of),
        consume_(consume),
        block_size_(options.block_size != 0 ? options.block_size : default_block_size(options.jobs)),
        whole_file_max_(options.block_size != 0 ? options.block_size : kWholeFileMax) {}

  void run() {
    if (options_.jobs <= 1) {
      produce([this](std::unique_ptr<Unit> u) {
        process(*u);
        take(*u);
      });
      return;
    }
    const std::size_t max_units = 64 * std::size_t{options_.jobs};
    // Blocks in flight: one per worker, one being consumed, and two read ahead so that a worker
    // finds the next block ready while the consumer waits for an earlier one (--jobs 2 on the
    // benchmark log: 0.84 s with one block ahead, 0.75 s with three). A processed block holds its
    // records too, about its own size again (peak RSS, docs/performance.md).
    const std::size_t max_bytes = (std::size_t{options_.jobs} + 3) * (block_size_ + 4096);
    std::vector<std::jthread> workers;
    workers.reserve(options_.jobs);
    for (unsigned k = 0; k < options_.jobs; ++k) workers.emplace_back([this] { work(); });
    std::jthread producer([this, max_units, max_bytes] {
      produce([this, max_units, max_bytes](std::unique_ptr<Unit> u) {
        u->weight = u->size_now(block_size_);
        std::unique_lock lock(mutex_);
        space_.wait(lock, [&] {
          return stop_ || queue_.empty() || (queue_.size() < max_units && queued_bytes_ + u->weight <= max_bytes);
        });
        if (stop_) return;  // the consumer failed: read on, keep nothing
        queued_bytes_ += u->weight;
        queue_.push_back(std::move(u));
        work_.notify_one();
      });
      std::lock_guard lock(mutex_);
      produced_all_ = true;
      work_.notify_all();
      done_.notify_all();
    });
    auto stop = [this] {
      std::lock_guard lock(mutex_);
      stop_ = true;
      work_.notify_all();
      space_.notify_all();
    };
    try {
      for (;;) {
        std::unique_ptr<Unit> u;
        {
          std::unique_lock lock(mutex_);
          done_.wait(lock, [&] { return (!queue_.empty() && queue_.front()->done) || (produced_all_ && queue_.empty()); });
          if (queue_.empty()) break;
          u = std::move(queue_.front());
          queue_.pop_front();
          --next_work_;
          queued_bytes_ -= u->weight;
          space_.notify_one();
        }
        take(*u);
      }
    } catch (...) {
      stop();  // let the producer and the workers end before the exception leaves
      throw;
    }
    stop();
  }

 private:
  const std::vector<PipelineInput>& inputs_;
  const PipelineOptions& options_;
  const FlagsFor& flags_for_;
  const RecordsOf& records_of_;
  const std::function<void(Batch&&)>& consume_;
  const std::size_t block_size_;  ///< JSON Lines logs are read in blocks of about this size
  /// Files up to this size are read whole (by a worker); larger ones go through produce_stream.
  /// The same for any `jobs` by default (512 KiB), so that only the block size depends on it.
  const std::size_t whole_file_max_;
  static constexpr std::size_t kWholeFileMax = std::size_t{1} << 19;  ///< 512 KiB

  // Shared between the threads (jobs > 1).
  std::mutex mutex_;
  std::condition_variable work_;   ///< a unit to process, or the end
  std::condition_variable done_;   ///< the front unit is done, or the end
  std::condition_variable space_;  ///< the queue has room
  std::deque<std::unique_ptr<Unit>> queue_;  ///< units not yet taken by the consumer, in order
  std::size_t next_work_ = 0;                ///< index in queue_ of the next unit to process
  std::size_t queued_bytes_ = 0;
  bool produced_all_ = false;
  bool stop_ = false;

  std::mutex pool_mutex_;
  std::vector<std::string> pool_;  ///< block buffers the consumer is done with, for the producer

  std::string take_buffer() {
    std::lock_guard lock(pool_mutex_);
    if (pool_.empty()) return {};
    std::string s = std::move(pool_.back());
    pool_.pop_back();
    s.clear();
    return s;
  }

  void give_back(std::string& s) {
    if (s.capacity() < block_size_) return;
    std::lock_guard lock(pool_mutex_);
    if (pool_.size() < std::size_t{options_.jobs} + 2) pool_.push_back(std::move(s));
  }

  // The consumer's state for the JSON Lines log being taken.
  std::size_t log_input_ = static_cast<std::size_t>(-1);
  std::size_t log_offset_ = 0;     ///< exchanges delivered so far
  bool log_wrapped_ = false;       ///< some block so far wrapped messages with HTTP facts
  bool log_failed_ = false;
  bool log_delivered_ = false;
  std::string carry_;              ///< blocks that wait for later lines, read again with them
  std::size_t carry_first_line_ = 0;  ///< the line the carried text starts after
  std::vector<std::size_t> carry_skip_;  ///< its lines to read as blank (LinesBlock::carry_skip)
  std::size_t carry_blocks_ = 0;

  // ------------------------------------------------------------------------------------------
  // Producer

  /// Small files go to the workers in groups of this many (consecutive inputs): one unit per
  /// file cost six futex calls a file between the threads (118,000 for a folder of 20,000
  /// captures, as much system time as the reading), and `--jobs 2` gained nothing.
  static constexpr std::size_t kGroupFiles = 16;

  template <typename Emit>
  void produce(Emit&& emit) {
    std::unique_ptr<Unit> group;
    auto flush_group = [&] {
      if (!group) return;
      if (group->parts.size() == 1) emit(std::move(group->parts.front()));  // a lone file as itself
      else emit(std::move(group));
      group.reset();
    };
    for (std::size_t i = 0; i < inputs_.size(); ++i) {
      const std::string& path = inputs_[i].path;
      if (!path.empty()) {
        struct stat st {};
        if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
            static_cast<std::size_t>(st.st_size) <= whole_file_max_) {
          auto u = std::make_unique<Unit>();
          u->kind = Unit::Kind::file;
          u->input = i;
          if (options_.jobs <= 1) {  // one thread: nothing to hand over
            emit(std::move(u));
            continue;
          }
          if (!group) {
            group = std::make_unique<Unit>();
            group->kind = Unit::Kind::group;
            group->input = i;
          }
          group->parts.push_back(std::move(u));
          if (group->parts.size() == kGroupFiles) flush_group();
          continue;
        }
      }
      flush_group();
      produce_stream(i, emit);
    }
    flush_group();
  }

  /// A large file or standard input: a JSON Lines log goes out in blocks, anything else whole.
  template <typename Emit>
  void produce_stream(std::size_t i, Emit& emit) {
    auto fail = [&](std::string why) {
      auto u = std::make_unique<Unit>();
      u->kind = Unit::Kind::error;
      u->input = i;
      u->error = std::move(why);
      emit(std::move(u));
    };
    const std::string& path = inputs_[i].path;
    int fd = STDIN_FILENO;
    if (!path.empty()) {
      do {
        fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
      } while (fd < 0 && errno == EINTR);
      if (fd < 0) return fail(errno_text(errno));
      struct stat st {};
      if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        ::close(fd);
        return fail(errno_text(EISDIR));
      }
    }
    struct Closer {
      int fd;
      ~Closer() {
        if (fd != STDIN_FILENO) ::close(fd);
      }
    } closer{fd};
    const std::size_t block = block_size_;
    const std::size_t limit = options_.capture.max_input;
    std::string buf;
    buf.reserve(block + json::kPadding);  // room for simdjson's padding after the first block
    bool eof = false;
    int err = 0;
    // The head: at least one block, and whole lines.
    while (!eof && (buf.size() < block || buf.find('\n') == std::string::npos)) {
      if (buf.size() > limit) return fail(too_large_message(limit));
      if (!read_more(fd, buf, block, eof, err)) return fail(errno_text(err));
    }
    const std::size_t head_end = last_newline(buf);
    if (!is_json_lines(std::string_view(buf).substr(0, head_end == std::string::npos ? buf.size() : head_end + 1))) {
      // Not a log: the input is one document, read whole (up to --max-input) in blocks joined
      // once, never past the limit (src/cli/read_limited.hpp): a huge stream costs --max-input.
      if (!eof) {
        auto whole = read_fd_limited(fd, limit, std::move(buf));
        if (!whole) return fail(whole.error().message);
        buf = std::move(*whole);
      }
      if (buf.size() > limit) return fail(too_large_message(limit));
      auto u = std::make_unique<Unit>();
      u->kind = Unit::Kind::bytes;
      u->input = i;
      u->data = std::move(buf);
      return emit(std::move(u));
    }
    auto flags = std::make_shared<const ContextFlags>(flags_for_(i));
    std::size_t lines_before = 0;
    auto emit_block = [&](std::string data, bool last) {
      auto u = std::make_unique<Unit>();
      u->kind = Unit::Kind::block;
      u->input = i;
      u->flags = flags;
      u->last_block = last;
      u->first_line = lines_before;
      lines_before += count_newlines(data);
      u->data = std::move(data);
      emit(std::move(u));
    };
    for (;;) {
      const std::size_t nl = eof ? std::string::npos : last_newline(buf);
      if (eof || nl != std::string::npos) {
        const std::size_t end = eof ? buf.size() : nl + 1;  // the whole lines read
        // Blocks of at most kBlockLines lines: a block's records take about the same memory per
        // exchange whatever the length of its lines, so short lines make short blocks (peak RSS,
        // docs/performance.md). Those are copied out; the last block keeps the buffer.
        std::size_t start = 0;
        for (std::size_t cut = line_cut(buf, 0, end); cut < end; cut = line_cut(buf, start, end)) {
          std::string part = take_buffer();
          part.reserve(cut - start + json::kPadding);
          part.assign(buf, start, cut - start);
          emit_block(std::move(part), false);
          start = cut;
        }
        // The last block keeps the buffer read into; only the cut line after its last line end
        // is copied, into a buffer that went round (give_back: fresh memory costs a page fault
        // per page), where the next read goes.
        std::string next = take_buffer();
        if (!eof) {
          next.reserve(block + (buf.size() - end) + json::kPadding);
          next.assign(buf, end);
        }
        buf.resize(end);
        if (start > 0) buf.erase(0, start);
        emit_block(std::move(buf), eof);
        buf = std::move(next);
        if (eof) return;
      } else if (buf.size() > limit) {
        return fail("a line longer than --max-input (" + std::to_string(limit) +
                    " bytes); raise the limit with --max-input BYTES");
      }
      if (!read_more(fd, buf, block, eof, err)) return fail(errno_text(err));
    }
  }

  // ------------------------------------------------------------------------------------------
  // Workers

  void work() {
    for (;;) {
      Unit* u = nullptr;
      {
        std::unique_lock lock(mutex_);
        work_.wait(lock, [&] { return stop_ || next_work_ < queue_.size(); });
        if (next_work_ >= queue_.size()) return;
        u = queue_[next_work_++].get();
      }
      process(*u);
      std::lock_guard lock(mutex_);
      u->done = true;
      done_.notify_one();
    }
  }

  void classify_all(Unit& u, const std::vector<Exchange>& exchanges, const ContextFlags& flags) {
    u.exchanges = exchanges.size();
    u.records.reserve(exchanges.size());  // a Record is large: no regrowth while filling
    for (const Exchange& ex : exchanges) records_of_(ex, flags, u.records);
  }

  void process(Unit& u) {
    if (u.kind == Unit::Kind::group) {
      for (auto& part : u.parts) process(*part);
      return;
    }
    try {
      process_unit(u);
    } catch (const std::exception& e) {
      u.records.clear();
      u.error = std::string("internal error while classifying: ") + e.what();
    }
  }

  void process_unit(Unit& u) {
    const PipelineInput& in = inputs_[u.input];
    switch (u.kind) {
      case Unit::Kind::file: {
        auto data = read_file_limited(in.path, options_.capture.max_input);
        if (!data) {
          u.error = std::move(data.error().message);
          break;
        }
        u.data = std::move(*data);
        [[fallthrough]];
      }
      case Unit::Kind::bytes: {
        CaptureOptions capture = options_.capture;
        std::string body;  // curl -v stdout beside its stderr capture (CaptureOptions::separate_body)
        if (!in.body_path.empty()) {
          auto read = read_file_limited(in.body_path, options_.capture.max_input);
          if (!read) {
            u.error = in.body_path + ": " + read.error().message;
            break;
          }
          body = std::move(*read);
          capture.separate_body = body;
        }
        auto exchanges = read_capture(u.data, in.name, capture);
        std::string().swap(u.data);  // the exchanges own their bytes
        if (!exchanges) {
          u.error = std::move(exchanges.error().message);
          break;
        }
        classify_all(u, *exchanges, flags_for_(u.input));
        break;
      }
      case Unit::Kind::block: {
        // Blocks are read with room for simdjson's padding after them (produce_stream), so
        // lines are parsed in place; a block joined from carried ones may lack it.
        const bool padded = u.data.capacity() - u.data.size() >= json::kPadding;
        auto block = read_lines_block(u.data, in.name, 0, options_.capture, u.first_line, padded,
                                      /*more_follows=*/!u.last_block, u.skip_lines);
        if (!block) {
          u.error = std::move(block.error().message);
          break;
        }
        u.self_contained = block->self_contained;
        u.wrapped = block->wrapped;
        u.consumed = block->consumed;
        u.consumed_lines = block->consumed_lines;
        u.carry_skip = std::move(block->carry_skip);
        classify_all(u, block->exchanges, *u.flags);
        break;
      }
      case Unit::Kind::error:
      case Unit::Kind::group: break;  // process() takes a group part by part
    }
  }

  // ------------------------------------------------------------------------------------------
  // Consumer

  void deliver(std::size_t input, std::vector<Record>&& records, std::optional<std::string> error = std::nullopt) {
    const bool first = input != log_input_ || !log_delivered_;
    if (input == log_input_) log_delivered_ = true;
    consume_(Batch{input, std::move(error), std::move(records), first});
  }

  /// Moves `source` ("NAME#k", maybe "[i]" after it) of the log named `name` on by `offset`
  /// exchanges, in place; any other text is left alone.
  static void renumber(std::string& source, const std::string& name, std::size_t offset) {
    if (offset == 0 || source.size() <= name.size() || source.compare(0, name.size(), name) != 0 ||
        source[name.size()] != '#') {
      return;
    }
    const char* begin = source.data() + name.size() + 1;
    const char* end = source.data() + source.size();
    std::size_t local = 0;
    auto [ptr, ec] = std::from_chars(begin, end, local);
    if (ec != std::errc()) return;
    // In place: "name#" stays, the number is rewritten, a "[k]" after it kept.
    char digits[24];
    const auto written = std::to_chars(digits, digits + sizeof digits, offset + local).ptr;
    const std::string after(ptr, end);
    source.resize(name.size() + 1);
    source.append(digits, written);
    source += after;
  }

  /// Records of a block read apart carry the block's own numbering: move it on by the exchanges
  /// already delivered (the record's source and the sources its session facts cite: a tools/list
  /// result's tool definitions), and name the format as one read of the whole log would.
  void deliver_block(Unit& u) {
    const std::string& name = inputs_[u.input].name;
    const bool wrapped = log_wrapped_ || u.wrapped;
    std::shared_ptr<const SessionFacts> facts_read;  // the batch's facts as read, and renumbered
    std::shared_ptr<const SessionFacts> facts_renumbered;
    for (Record& r : u.records) {
      renumber(r.source, name, log_offset_);
      if (log_offset_ > 0 && r.facts && !r.facts->tools.empty()) {
        if (r.facts != facts_read) {  // the records of one batch reply share their facts
          facts_read = r.facts;
          auto copy = std::make_shared<SessionFacts>(*r.facts);
          for (ToolDefinition& t : copy->tools) renumber(t.source, name, log_offset_);
          facts_renumbered = std::move(copy);
        }
        r.facts = facts_renumbered;
      }
      if (wrapped && r.format == CaptureFormat::jsonrpc_messages) r.format = CaptureFormat::exchange_log;
    }
    log_offset_ += u.exchanges;
    log_wrapped_ = wrapped;
    deliver(u.input, std::move(u.records));
  }

  void take(Unit& u) {
    if (u.kind == Unit::Kind::group) {
      for (auto& part : u.parts) take(*part);
      return;
    }
    if (u.kind != Unit::Kind::block) {
      if (u.error) return deliver(u.input, {}, std::move(u.error));
      return deliver(u.input, std::move(u.records));
    }
    if (u.input != log_input_) {
      log_input_ = u.input;
      log_offset_ = 0;
      log_wrapped_ = false;
      log_failed_ = false;
      log_delivered_ = false;
      carry_.clear();
      carry_skip_.clear();
      carry_blocks_ = 0;
    }
    if (log_failed_) return;
    if (u.error) {
      log_failed_ = true;
      return deliver(u.input, {}, std::move(u.error));
    }
    if (carry_.empty()) {
      if (u.consumed > 0) return deliver_part(u);
      if (u.self_contained || u.last_block) {
        deliver_block(u);
        return give_back(u.data);
      }
      carry_ = std::move(u.data);
      carry_first_line_ = u.first_line;
      carry_skip_.clear();
      carry_blocks_ = 1;
      return;
    }
    // Lines of earlier blocks wait for lines of this one: read them again together. A log that
    // never comes apart (a message stream whose replies trail far behind) is read whole at the end.
    constexpr std::size_t kRereads = 8;
    carry_ += u.data;
    give_back(u.data);
    ++carry_blocks_;
    if (carry_blocks_ > kRereads && !u.last_block) return;
    Unit joined;
    joined.kind = Unit::Kind::block;
    joined.input = u.input;
    joined.flags = u.flags;
    joined.last_block = u.last_block;
    joined.data = std::move(carry_);
    joined.first_line = carry_first_line_;
    joined.skip_lines = carry_skip_;
    carry_.clear();
    process(joined);
    if (joined.error) {
      log_failed_ = true;
      return deliver(u.input, {}, std::move(joined.error));
    }
    if (joined.consumed > 0) return deliver_part(joined);
    if (joined.self_contained || u.last_block) {
      carry_blocks_ = 0;
      carry_skip_.clear();
      return deliver_block(joined);
    }
    carry_ = std::move(joined.data);  // read again from the same line, with the same lines skipped
  }

  /// A block read only up to a cut (LinesBlock::consumed): its records go out, and the lines
  /// from the cut on wait for the next block (only they are read again, carry_skip_ read blank).
  void deliver_part(Unit& u) {
    carry_.assign(u.data, u.consumed);
    carry_first_line_ = u.first_line + u.consumed_lines;
    carry_skip_ = std::move(u.carry_skip);
    carry_blocks_ = 1;
    deliver_block(u);
    give_back(u.data);
  }
};

}  // namespace

void run_pipeline(const std::vector<PipelineInput>& inputs, const PipelineOptions& options, const FlagsFor& flags_for,
                  const RecordsOf& records_of, const std::function<void(Batch&&)>& consume) {
  Pipeline(inputs, options, flags_for, records_of, consume).run();
}

std::size_t default_block_size(unsigned jobs) { return jobs <= 1 ? std::size_t{1} << 17 : std::size_t{1} << 19; }

unsigned default_jobs() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    const int n = CPU_COUNT(&set);
    if (n > 0) return static_cast<unsigned>(n);
  }
  const unsigned n = std::thread::hardware_concurrency();
  return n > 0 ? n : 1;
}

}  // namespace mcptriage::cli
