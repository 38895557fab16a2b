// std::expected for clang 14 with libstdc++ 12 (the fuzz build only).
//
// libstdc++ 12 ships <expected> but enables it only when __cpp_concepts >= 202002L
// (conditionally trivial special members, P0848), which clang 14 does not implement, so
// under clang 14 <expected> declares nothing. The fuzz build force-includes this header
// (-include) to supply the subset of std::expected that mcptriage uses; g++ builds never
// see it. Formally, adding to namespace std is undefined; here it fills a declared-empty
// standard header with the standard's own interface, for a test-only build.
#pragma once

#include <version>

#if !defined(__cpp_lib_expected)

#include <exception>
#include <functional>
#include <initializer_list>
#include <type_traits>
#include <utility>
#include <variant>

namespace std {

template <class E>
class unexpected {
 public:
  constexpr unexpected(const unexpected&) = default;
  constexpr unexpected(unexpected&&) = default;
  template <class Err = E>
    requires(!is_same_v<remove_cvref_t<Err>, unexpected> && !is_same_v<remove_cvref_t<Err>, in_place_t> &&
             is_constructible_v<E, Err>)
  constexpr explicit unexpected(Err&& e) : value_(std::forward<Err>(e)) {}
  template <class... Args>
  constexpr explicit unexpected(in_place_t, Args&&... args) : value_(std::forward<Args>(args)...) {}

  constexpr const E& error() const& noexcept { return value_; }
  constexpr E& error() & noexcept { return value_; }
  constexpr E&& error() && noexcept { return std::move(value_); }

  template <class E2>
  friend constexpr bool operator==(const unexpected& a, const unexpected<E2>& b) {
    return a.error() == b.error();
  }

 private:
  E value_;
};

template <class E>
unexpected(E) -> unexpected<E>;

struct unexpect_t {
  explicit unexpect_t() = default;
};
inline constexpr unexpect_t unexpect{};

template <class E>
class bad_expected_access;

template <>
class bad_expected_access<void> : public exception {
 public:
  const char* what() const noexcept override { return "bad access to std::expected without expected value"; }
};

template <class E>
class bad_expected_access : public bad_expected_access<void> {
 public:
  explicit bad_expected_access(E e) : error_(std::move(e)) {}
  const E& error() const& noexcept { return error_; }
  E& error() & noexcept { return error_; }

 private:
  E error_;
};

template <class T, class E>
class expected {
 public:
  using value_type = T;
  using error_type = E;
  using unexpected_type = unexpected<E>;

  constexpr expected()
    requires is_default_constructible_v<T>
      : v_(in_place_index<0>) {}
  constexpr expected(const expected&) = default;
  constexpr expected(expected&&) = default;
  constexpr expected& operator=(const expected&) = default;
  constexpr expected& operator=(expected&&) = default;

  template <class U = T>
    requires(!is_same_v<remove_cvref_t<U>, in_place_t> && !is_same_v<remove_cvref_t<U>, expected> &&
             !is_same_v<remove_cvref_t<U>, unexpect_t> && is_constructible_v<T, U>)
  constexpr expected(U&& v) : v_(in_place_index<0>, std::forward<U>(v)) {}

  template <class G>
    requires is_constructible_v<E, const G&>
  constexpr expected(const unexpected<G>& u) : v_(in_place_index<1>, u.error()) {}
  template <class G>
    requires is_constructible_v<E, G>
  constexpr expected(unexpected<G>&& u) : v_(in_place_index<1>, std::move(u).error()) {}

  template <class... Args>
  constexpr explicit expected(in_place_t, Args&&... args) : v_(in_place_index<0>, std::forward<Args>(args)...) {}
  template <class... Args>
  constexpr explicit expected(unexpect_t, Args&&... args) : v_(in_place_index<1>, std::forward<Args>(args)...) {}

  template <class U = T>
    requires(!is_same_v<remove_cvref_t<U>, expected> && is_constructible_v<T, U>)
  constexpr expected& operator=(U&& v) {
    v_.template emplace<0>(std::forward<U>(v));
    return *this;
  }
  template <class G>
  constexpr expected& operator=(unexpected<G> u) {
    v_.template emplace<1>(std::move(u).error());
    return *this;
  }

  constexpr bool has_value() const noexcept { return v_.index() == 0; }
  constexpr explicit operator bool() const noexcept { return has_value(); }

  constexpr T* operator->() noexcept { return &std::get<0>(v_); }
  constexpr const T* operator->() const noexcept { return &std::get<0>(v_); }
  constexpr T& operator*() & noexcept { return std::get<0>(v_); }
  constexpr const T& operator*() const& noexcept { return std::get<0>(v_); }
  constexpr T&& operator*() && noexcept { return std::get<0>(std::move(v_)); }

  constexpr T& value() & {
    check();
    return std::get<0>(v_);
  }
  constexpr const T& value() const& {
    check();
    return std::get<0>(v_);
  }
  constexpr T&& value() && {
    check();
    return std::get<0>(std::move(v_));
  }
  constexpr E& error() & noexcept { return std::get<1>(v_); }
  constexpr const E& error() const& noexcept { return std::get<1>(v_); }
  constexpr E&& error() && noexcept { return std::get<1>(std::move(v_)); }

  template <class U>
  constexpr T value_or(U&& other) const& {
    return has_value() ? **this : static_cast<T>(std::forward<U>(other));
  }
  template <class U>
  constexpr T value_or(U&& other) && {
    return has_value() ? std::move(**this) : static_cast<T>(std::forward<U>(other));
  }

  template <class F>
  constexpr auto and_then(F&& f) const& {
    using R = remove_cvref_t<invoke_result_t<F, const T&>>;
    if (has_value()) return std::invoke(std::forward<F>(f), **this);
    return R(unexpect, error());
  }
  template <class F>
  constexpr auto transform(F&& f) const& {
    using U = remove_cv_t<invoke_result_t<F, const T&>>;
    if (has_value()) return expected<U, E>(in_place, std::invoke(std::forward<F>(f), **this));
    return expected<U, E>(unexpect, error());
  }
  template <class F>
  constexpr auto transform_error(F&& f) const& {
    using G = remove_cv_t<invoke_result_t<F, const E&>>;
    if (has_value()) return expected<T, G>(in_place, **this);
    return expected<T, G>(unexpect, std::invoke(std::forward<F>(f), error()));
  }
  template <class F>
  constexpr auto or_else(F&& f) const& {
    using R = remove_cvref_t<invoke_result_t<F, const E&>>;
    if (has_value()) return R(in_place, **this);
    return std::invoke(std::forward<F>(f), error());
  }

  template <class T2, class E2>
  friend constexpr bool operator==(const expected& a, const expected<T2, E2>& b) {
    if (a.has_value() != b.has_value()) return false;
    return a.has_value() ? *a == *b : a.error() == b.error();
  }

 private:
  constexpr void check() const {
    if (!has_value()) throw bad_expected_access<E>(std::get<1>(v_));
  }
  variant<T, E> v_;
};

template <class E>
class expected<void, E> {
 public:
  using value_type = void;
  using error_type = E;
  constexpr expected() noexcept : err_(), ok_(true) {}
  template <class G>
  constexpr expected(const unexpected<G>& u) : err_(u.error()), ok_(false) {}
  template <class G>
  constexpr expected(unexpected<G>&& u) : err_(std::move(u).error()), ok_(false) {}
  template <class... Args>
  constexpr explicit expected(unexpect_t, Args&&... args) : err_(std::forward<Args>(args)...), ok_(false) {}
  constexpr bool has_value() const noexcept { return ok_; }
  constexpr explicit operator bool() const noexcept { return ok_; }
  constexpr void operator*() const noexcept {}
  constexpr void value() const {
    if (!ok_) throw bad_expected_access<E>(err_);
  }
  constexpr const E& error() const& noexcept { return err_; }
  constexpr E& error() & noexcept { return err_; }

 private:
  E err_;
  bool ok_;
};

}  // namespace std

#endif  // !__cpp_lib_expected
