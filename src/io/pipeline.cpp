// The pipeline (pipeline.hpp): the source feeds units of work in input order (small files are
// left to the workers; JSON Lines logs come in blocks cut at line ends), `jobs` workers read
// captures and classify, and the calling thread takes the results in order. With one job
// everything runs on the calling thread, one unit after the other.
#include "io/pipeline.hpp"

#include <sched.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

#include "io/read_limited.hpp"
#include "json/dom.hpp"

namespace mcptriage::io {

namespace {

/// One piece of work, in input order.
struct Unit {
  enum class Kind {
    file,       ///< a whole file the worker reads itself (the input's path)
    bytes,      ///< a whole input already read (`data`)
    block,      ///< whole lines of a JSON Lines log (`data`, kept for the consumer)
    exchanges,  ///< exchanges read already (`ready`)
    event,      ///< an event of a stream read live (`events`)
    error,      ///< the input failed (`error`)
    group,      ///< consecutive small files (`parts`, each a `file` unit), processed and taken in order
  } kind = Kind::file;
  std::vector<std::unique_ptr<Unit>> parts;  ///< a group's files
  std::size_t input = 0;
  std::string data;
  std::vector<Exchange> ready;
  std::vector<StreamEvent> events;
  bool live = false;
  bool follow = false;      ///< a block of a log followed as it grows (Feed::lines)
  bool last_block = false;  ///< the log's final block (possibly empty)
  std::size_t first_line = 0;  ///< lines of the log before this block (line numbers in details)
  std::shared_ptr<const ContextFlags> flags;  ///< a log's context, read once for all its blocks
  // Results.
  std::optional<std::string> error;
  std::vector<Record> records;
  std::vector<std::string> prepared;
  std::size_t exchanges = 0;
  bool self_contained = true;
  bool wrapped = false;
  std::size_t consumed = 0;        ///< a block read up to here only (LinesBlock::consumed), 0: all of it
  std::size_t consumed_lines = 0;
  std::vector<std::size_t> skip_lines;  ///< lines of `data` to read as blank (a carry's)
  std::vector<std::size_t> carry_skip;  ///< LinesBlock::carry_skip
  bool read = false;  ///< a block: a worker read it (not when its log was read by a LinesStream then)
  bool done = false;
  std::size_t weight = 0;  ///< what it counts in the queue's byte budget, fixed when queued

  /// What it counts in the queue's byte budget: its bytes, and a block of a log counts as a
  /// full block whatever its size, as its records take memory by the line (kBlockLines in
  /// file_source.cpp).
  std::size_t size_now(std::size_t block_size) const {
    if (kind == Kind::group) {
      std::size_t sum = 0;
      for (const auto& part : parts) sum += part->size_now(block_size);
      return sum;
    }
    return (kind == Kind::block || kind == Kind::exchanges ? std::max(data.size(), block_size) : data.size()) + 4096;
  }
};

/// Thrown by a Feed call once the run stopped, to unwind the source on the producer thread.
struct Stopped {};

constexpr std::size_t kWholeFileMax = std::size_t{1} << 19;  ///< 512 KiB

class Pipeline final : public Feed {
 public:
  Pipeline(Source& source, std::span<const Input> inputs, const PipelineOptions& options, const Work& work,
           const std::function<void(Batch&&)>& consume)
      : source_(source),
        inputs_(inputs),
        options_(options),
        work_fn_(work),
        consume_(consume),
        block_size_(file_source_sizes(options).block),
        threaded_(options.jobs > 1) {
    if (threaded_) stop_event_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  }
  ~Pipeline() override {
    if (stop_event_ >= 0) ::close(stop_event_);
  }
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  void run() {
    if (!threaded_) {
      source_.produce(*this);  // every unit processed and taken as it is fed
      return;
    }
    std::vector<std::jthread> workers;
    workers.reserve(options_.jobs);
    for (unsigned k = 0; k < options_.jobs; ++k) workers.emplace_back([this] { work(); });
    std::jthread producer([this] {
      try {
        source_.produce(*this);
        flush_group();
      } catch (const Stopped&) {
        // The consumer stopped the run: nothing more is wanted.
      } catch (...) {
        std::lock_guard lock(mutex_);
        producer_error_ = std::current_exception();
      }
      std::lock_guard lock(mutex_);
      produced_all_ = true;
      work_.notify_all();
      done_.notify_all();
    });
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
    producer.join();
    if (producer_error_) std::rethrow_exception(producer_error_);
  }

  // ------------------------------------------------------------------------------------------
  // Feed (the producer)

  void file(std::size_t input) override {
    auto u = std::make_unique<Unit>();
    u->kind = Unit::Kind::file;
    u->input = input;
    if (!threaded_) return emit(std::move(u));  // one thread: nothing to hand over
    if (!group_) {
      group_ = std::make_unique<Unit>();
      group_->kind = Unit::Kind::group;
      group_->input = input;
    }
    group_->parts.push_back(std::move(u));
    if (group_->parts.size() == kGroupFiles) flush_group();
  }

  void document(std::size_t input, std::string bytes) override {
    // A HAR file valid throughout goes on as batches of exchanges that are classified and
    // written as they come, as a log's blocks are (docs/performance.md, "One large HAR");
    // anything else, including a HAR with a fault anywhere, is read whole by a worker.
    if (inputs_[input].body_path.empty()) {
      CaptureOptions capture = options_.capture;
      capture.padded = bytes.capacity() - bytes.size() >= json::kPadding;
      auto read = read_checked_har_batches(bytes, inputs_[input].name, capture,
                                           [&](std::vector<Exchange>& batch, bool) {
                                             exchanges(input, std::move(batch), /*live=*/false);
                                           });
      if (read) {
        if (!*read) failed(input, std::move(read->error().message));
        return;
      }
    }
    auto u = unit(Unit::Kind::bytes, input);
    u->data = std::move(bytes);
    emit(std::move(u));
  }

  void lines(std::size_t input, std::string block, std::size_t first_line, bool last, bool follow) override {
    auto u = unit(Unit::Kind::block, input);
    u->flags = stream_context(input);
    u->last_block = last;
    u->follow = follow;
    u->first_line = first_line;
    u->data = std::move(block);
    emit(std::move(u));
  }

  void exchanges(std::size_t input, std::vector<Exchange> exchanges, bool live) override {
    auto u = unit(Unit::Kind::exchanges, input);
    u->flags = stream_context(input);
    u->ready = std::move(exchanges);
    u->live = live;
    emit(std::move(u));
  }

  void event(std::size_t input, StreamEvent event) override {
    auto u = unit(Unit::Kind::event, input);
    u->events.push_back(std::move(event));
    u->live = true;
    emit(std::move(u));
  }

  void failed(std::size_t input, std::string why) override {
    auto u = unit(Unit::Kind::error, input);
    u->error = std::move(why);
    emit(std::move(u));
  }

  int stop_fd() const override { return stop_event_; }

  std::string buffer() override {
    std::lock_guard lock(pool_mutex_);
    if (pool_.empty()) return {};
    std::string s = std::move(pool_.back());
    pool_.pop_back();
    s.clear();
    return s;
  }

 private:
  Source& source_;
  std::span<const Input> inputs_;
  const PipelineOptions& options_;
  const Work& work_fn_;
  const std::function<void(Batch&&)>& consume_;
  const std::size_t block_size_;  ///< JSON Lines logs are read in blocks of about this size
  const bool threaded_;
  int stop_event_ = -1;  ///< readable once the run stops (threaded only)

  /// Small files go to the workers in groups of this many (consecutive inputs): one unit per
  /// file cost six futex calls a file between the threads (118,000 for a folder of 20,000
  /// captures, as much system time as the reading), and `--jobs 2` gained nothing.
  static constexpr std::size_t kGroupFiles = 16;
  std::unique_ptr<Unit> group_;  ///< small files being grouped (producer)
  std::size_t flags_input_ = static_cast<std::size_t>(-1);
  std::shared_ptr<const ContextFlags> log_flags_;  ///< the context of the log being fed, read once

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
  std::exception_ptr producer_error_;

  std::mutex pool_mutex_;
  std::vector<std::string> pool_;  ///< block buffers the consumer is done with, for the producer

  void give_back(std::string& s) {
    if (s.capacity() < block_size_) return;
    std::lock_guard lock(pool_mutex_);
    if (pool_.size() < std::size_t{options_.jobs} + 2) pool_.push_back(std::move(s));
  }

  void stop() {
    std::lock_guard lock(mutex_);
    if (stop_) return;
    stop_ = true;
    work_.notify_all();
    space_.notify_all();
    if (stop_event_ >= 0) {
      const std::uint64_t one = 1;
      [[maybe_unused]] const ssize_t n = ::write(stop_event_, &one, sizeof one);
    }
  }

  /// A new unit of `input`, after the small files grouped so far (they come first).
  std::unique_ptr<Unit> unit(Unit::Kind kind, std::size_t input) {
    flush_group();
    auto u = std::make_unique<Unit>();
    u->kind = kind;
    u->input = input;
    return u;
  }

  /// The request context of an input fed in parts (a log's blocks, exchanges), read once.
  std::shared_ptr<const ContextFlags> stream_context(std::size_t input) {
    if (input != flags_input_ || !log_flags_) {
      flags_input_ = input;
      log_flags_ = std::make_shared<const ContextFlags>(work_fn_.context(input));
    }
    return log_flags_;
  }

  void flush_group() {
    if (!group_) return;
    std::unique_ptr<Unit> g = std::move(group_);
    if (g->parts.size() == 1) emit(std::move(g->parts.front()));  // a lone file as itself
    else emit(std::move(g));
  }

  void emit(std::unique_ptr<Unit> u) {
    if (!threaded_) {
      process(*u);
      take(*u);
      return;
    }
    // Blocks in flight: one per worker, one being consumed, and two read ahead so that a worker
    // finds the next block ready while the consumer waits for an earlier one (--jobs 2 on the
    // benchmark log: 0.84 s with one block ahead, 0.75 s with three). A processed block holds its
    // records too, about its own size again (peak RSS, docs/performance.md).
    const std::size_t max_units = 64 * std::size_t{options_.jobs};
    const std::size_t max_bytes = (std::size_t{options_.jobs} + 3) * (block_size_ + 4096);
    u->weight = u->size_now(block_size_);
    std::unique_lock lock(mutex_);
    space_.wait(lock, [&] {
      return stop_ || queue_.empty() || (queue_.size() < max_units && queued_bytes_ + u->weight <= max_bytes);
    });
    if (stop_) throw Stopped{};  // the consumer stopped: unwind the source, keep nothing
    queued_bytes_ += u->weight;
    queue_.push_back(std::move(u));
    work_.notify_one();
  }

  // ------------------------------------------------------------------------------------------
  // Workers

  void work() {
    for (;;) {
      Unit* u = nullptr;
      {
        std::unique_lock lock(mutex_);
        work_.wait(lock, [&] { return stop_ || next_work_ < queue_.size(); });
        if (stop_ || next_work_ >= queue_.size()) return;
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
    // Numbered within the unit; the consumer moves a log's numbers on (deliver_numbered).
    for (std::size_t k = 0; k < exchanges.size(); ++k) {
      work_fn_.records_of(exchanges[k], flags, SourceRef{u.input, k + 1, std::nullopt}, u.records, u.prepared);
    }
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
      u.prepared.clear();
      u.error = std::string("internal error while classifying: ") + e.what();
    }
  }

  void process_unit(Unit& u) {
    const Input& in = inputs_[u.input];
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
        capture.padded = u.data.capacity() - u.data.size() >= json::kPadding;
        // Classified batch by batch as read (a large HAR's exchanges are never all in memory).
        const ContextFlags& flags = work_fn_.context(u.input);
        std::size_t numbered = 0;
        auto count = read_capture_batches(u.data, in.name, capture, [&](std::vector<Exchange>& batch, bool from_start) {
          if (from_start) {
            u.records.clear();
            u.prepared.clear();
            numbered = 0;
          }
          for (const Exchange& ex : batch) {
            work_fn_.records_of(ex, flags, SourceRef{u.input, ++numbered, std::nullopt}, u.records, u.prepared);
          }
        });
        std::string().swap(u.data);
        if (!count) {
          u.records.clear();
          u.prepared.clear();
          u.error = std::move(count.error().message);
          break;
        }
        u.exchanges = numbered;
        break;
      }
      case Unit::Kind::block: {
        // A followed log read by one reader in the consumer (take_followed) needs no read here.
        if (u.follow && streaming_.load(std::memory_order_relaxed)) break;
        u.read = true;
        // Blocks are read with room for simdjson's padding after them (FileSource), so lines
        // are parsed in place; a block joined from carried ones may lack it.
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
      case Unit::Kind::exchanges: {
        classify_all(u, u.ready, *u.flags);
        std::vector<Exchange>().swap(u.ready);
        break;
      }
      case Unit::Kind::error:
      case Unit::Kind::event:
      case Unit::Kind::group: break;  // process() takes a group part by part
    }
  }

  // ------------------------------------------------------------------------------------------
  // Consumer

  // The consumer's state for the log (or stream of exchanges) being taken.
  std::size_t log_input_ = static_cast<std::size_t>(-1);
  std::size_t log_offset_ = 0;     ///< exchanges delivered so far
  bool log_wrapped_ = false;       ///< some block so far wrapped messages with HTTP facts
  bool log_failed_ = false;
  bool log_delivered_ = false;
  std::string carry_;              ///< blocks that wait for later lines, read again with them
  std::size_t carry_first_line_ = 0;  ///< the line the carried text starts after
  std::vector<std::size_t> carry_skip_;  ///< its lines to read as blank (LinesBlock::carry_skip)
  std::size_t carry_blocks_ = 0;
  std::unique_ptr<LinesStream> stream_;  ///< a followed log's reader while lines wait (take_followed)
  std::atomic<bool> streaming_{false};   ///< stream_ is set: workers leave followed blocks unread

  void deliver(Unit& u, bool live = false) {
    const bool first = u.input != log_input_ || !log_delivered_;
    if (u.input == log_input_) log_delivered_ = true;
    consume_(Batch{u.input, std::move(u.error), std::move(u.records), std::move(u.prepared), first, live,
                   u.follow, std::move(u.events)});
  }

  void deliver_error(std::size_t input, std::string why) {
    Unit failed;
    failed.input = input;
    failed.error = std::move(why);
    deliver(failed);
  }

  /// Records of a block (or of fed exchanges) read apart carry the unit's own numbering: move it
  /// on by the exchanges already delivered, and name the format as one read of the whole log
  /// would (lines_format: the capture readers' rule).
  void deliver_numbered(Unit& u) {
    const bool rename = log_wrapped_ && !u.wrapped;
    const CaptureFormat wrapped_format = lines_format(true);
    for (Record& r : u.records) {
      r.source.exchange += log_offset_;
      if (rename) r.format = wrapped_format;
    }
    if (rename) u.prepared.clear();  // made for the record as it was named
    log_offset_ += u.exchanges;
    log_wrapped_ = log_wrapped_ || u.wrapped;
    deliver(u, u.live);
  }

  void take(Unit& u) {
    if (u.kind == Unit::Kind::group) {
      for (auto& part : u.parts) take(*part);
      return;
    }
    if (u.kind != Unit::Kind::block && u.kind != Unit::Kind::exchanges && u.kind != Unit::Kind::event) {
      if (u.error) return deliver_error(u.input, std::move(*u.error));
      return deliver(u);
    }
    if (u.input != log_input_) {
      stream_.reset();
      streaming_.store(false, std::memory_order_relaxed);
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
      return deliver_error(u.input, std::move(*u.error));
    }
    if (u.kind == Unit::Kind::exchanges) return deliver_numbered(u);
    if (u.kind == Unit::Kind::event) {  // numbered after the exchanges delivered so far
      for (StreamEvent& e : u.events) {
        e.source.input = u.input;
        e.source.exchange += log_offset_;
      }
      return deliver(u, true);
    }
    if (u.follow) return take_followed(u);
    if (carry_.empty()) {
      if (u.consumed > 0) return deliver_part(u);
      if (u.self_contained || u.last_block) {
        deliver_numbered(u);
        return give_back(u.data);
      }
      carry_ = std::move(u.data);
      carry_first_line_ = u.first_line;
      carry_skip_.clear();
      carry_blocks_ = 1;
      return;
    }
    // Lines of earlier blocks wait for lines of this one: read them again together. A log that
    // never comes apart (a message stream whose replies trail far behind) is read whole at the end
    // (a followed log, which has no end to wait for, is read by a LinesStream: take_followed).
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
      return deliver_error(u.input, std::move(*joined.error));
    }
    if (joined.consumed > 0) return deliver_part(joined);
    if (joined.self_contained || u.last_block) {
      carry_blocks_ = 0;
      carry_skip_.clear();
      return deliver_numbered(joined);
    }
    carry_ = std::move(joined.data);  // read again from the same line, with the same lines skipped
  }

  /// A block of a followed log (--follow, live stdin in row mode, the proxy's and the wrapper's
  /// records). While no line waits across blocks, each is read by a worker on its own, as a
  /// file's are. Once one leaves lines waiting, the log is read on from the first that waits by
  /// one LinesStream in this thread, until nothing waits again: unlike a carry read again with
  /// each block, no line is read twice, so a client with thousands of requests in flight costs
  /// what it costs read at once (and a request is not given up while other requests are sent).
  void take_followed(Unit& u) {
    if (stream_) return read_on(u, u.data);
    if (!u.read) {  // a worker saw the log read by a stream, which has ended since
      process(u);
      if (u.error) {
        log_failed_ = true;
        return deliver_error(u.input, std::move(*u.error));
      }
    }
    // A block cut at its first waiting exchange is self-contained up to the cut (LinesBlock).
    if (u.consumed == 0 && (u.self_contained || u.last_block)) {
      deliver_numbered(u);
      return give_back(u.data);
    }
    stream_ = std::make_unique<LinesStream>(inputs_[u.input].name, options_.capture,
                                            u.first_line + u.consumed_lines, std::move(u.carry_skip));
    streaming_.store(true, std::memory_order_relaxed);
    if (u.consumed == 0) {
      // Nothing before the first line that waits was final: the block is read again whole.
      u.records.clear();
      u.prepared.clear();
      return read_on(u, u.data);
    }
    deliver_numbered(u);  // the exchanges before the cut are final
    u.records.clear();
    u.prepared.clear();
    std::string rest;
    rest.reserve(u.data.size() - u.consumed + json::kPadding);
    rest.assign(u.data, u.consumed);
    give_back(u.data);
    read_on(u, rest);
  }

  /// The next lines of a followed log read by the stream; it ends when nothing waits any more.
  void read_on(Unit& u, std::string& lines) {
    const bool padded = lines.capacity() - lines.size() >= json::kPadding;
    auto block = stream_->read(lines, padded, u.last_block);
    give_back(lines);
    if (!block) {
      stream_.reset();
      streaming_.store(false, std::memory_order_relaxed);
      log_failed_ = true;
      return deliver_error(u.input, std::move(block.error().message));
    }
    if (block->self_contained || u.last_block) {
      stream_.reset();
      streaming_.store(false, std::memory_order_relaxed);
    }
    u.records.clear();
    u.prepared.clear();
    u.wrapped = block->wrapped;
    try {
      classify_all(u, block->exchanges, *u.flags);
    } catch (const std::exception& e) {
      log_failed_ = true;
      return deliver_error(u.input, std::string("internal error while classifying: ") + e.what());
    }
    deliver_numbered(u);
  }

  /// A block read only up to a cut (LinesBlock::consumed): its records go out, and the lines
  /// from the cut on wait for the next block (only they are read again, carry_skip_ read blank).
  void deliver_part(Unit& u) {
    carry_.assign(u.data, u.consumed);
    carry_first_line_ = u.first_line + u.consumed_lines;
    carry_skip_ = std::move(u.carry_skip);
    carry_blocks_ = 1;
    deliver_numbered(u);
    give_back(u.data);
  }
};

}  // namespace

FileSource::Sizes file_source_sizes(const PipelineOptions& options) {
  FileSource::Sizes sizes;
  sizes.max_input = options.capture.max_input;
  sizes.block = options.block_size != 0 ? options.block_size : default_block_size(options.jobs);
  // The same for any `jobs` by default (512 KiB), so that only the block size depends on it.
  sizes.whole_file_max = options.block_size != 0 ? options.block_size : kWholeFileMax;
  return sizes;
}

void run_pipeline(Source& source, std::span<const Input> inputs, const PipelineOptions& options, const Work& work,
                  const std::function<void(Batch&&)>& consume) {
  Pipeline(source, inputs, options, work, consume).run();
}

void run_pipeline(std::span<const Input> inputs, const PipelineOptions& options, const Work& work,
                  const std::function<void(Batch&&)>& consume) {
  FileSource source(inputs, file_source_sizes(options));
  run_pipeline(source, inputs, options, work, consume);
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

}  // namespace mcptriage::io
