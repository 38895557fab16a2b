// The one translation unit that compiles Boost.Asio (with its SSL part) and Boost.Beast: the
// proxy library is built with BOOST_ASIO_SEPARATE_COMPILATION and BOOST_BEAST_SEPARATE_COMPILATION
// (CMakeLists.txt), so the other files include only declarations and build faster.
#include <boost/asio/impl/src.hpp>
#include <boost/asio/ssl/impl/src.hpp>
#include <boost/beast/src.hpp>
