// Decimal text to int64 exactly; every expected value is the text's digits with the point moved by
// hand (µs -> ns is three places).
#include "core/trace/tracenumber.h"

#include <gtest/gtest.h>

#include <limits>

using namespace synctax;

namespace {

std::int64_t ns(const char* text)
{
    std::int64_t v = -1;
    EXPECT_EQ(microsToNs(text, v), DecimalStatus::Ok) << text;
    return v;
}

DecimalStatus status(const char* text)
{
    std::int64_t v = 0;
    return microsToNs(text, v);
}

} // namespace

TEST(TraceNumber, MicrosecondsBecomeNanosecondsExactly)
{
    EXPECT_EQ(ns("1707417525509335"), 1707417525509335000);
    EXPECT_EQ(ns("5269671049862.987"), 5269671049862987);
    EXPECT_EQ(ns("1712195495519689.0"), 1712195495519689000);
    EXPECT_EQ(ns("63.813"), 63813);
    EXPECT_EQ(ns("0.768"), 768);
    EXPECT_EQ(ns("0"), 0);
    EXPECT_EQ(ns("-0.5"), -500);
    EXPECT_EQ(ns("2413669096090.1"), 2413669096090100);
}

TEST(TraceNumber, DigitsBelowANanosecondAreCutTowardZero)
{
    EXPECT_EQ(ns("1.0009"), 1000);
    EXPECT_EQ(ns("0.0001"), 0);
    EXPECT_EQ(ns("-1.9999"), -1999);
}

TEST(TraceNumber, ExponentsMoveThePoint)
{
    EXPECT_EQ(ns("1.5e3"), 1500000);
    EXPECT_EQ(ns("15E-1"), 1500);
    EXPECT_EQ(ns("1e-3"), 1);
    EXPECT_EQ(ns("1e-4"), 0);
    EXPECT_EQ(ns("0e999999999"), 0);
    EXPECT_EQ(ns("5e-999999999"), 0);
}

TEST(TraceNumber, TheLimitsOfInt64Nanoseconds)
{
    // INT64_MAX = 9223372036854775807 ns = 9223372036854775.807 µs
    EXPECT_EQ(ns("9223372036854775.807"), std::numeric_limits<std::int64_t>::max());
    EXPECT_EQ(status("9223372036854775.808"), DecimalStatus::TooLarge);
    EXPECT_EQ(status("9223372036854776"), DecimalStatus::TooLarge);
    EXPECT_EQ(status("1e300"), DecimalStatus::TooLarge);
    EXPECT_EQ(status("123456789012345678901234567890"), DecimalStatus::TooLarge);
}

TEST(TraceNumber, NotNumbers)
{
    EXPECT_EQ(status("NaN"), DecimalStatus::NotFinite);
    EXPECT_EQ(status("-Infinity"), DecimalStatus::NotFinite);
    EXPECT_EQ(status(""), DecimalStatus::NotFinite);
    EXPECT_EQ(status("1."), DecimalStatus::Invalid);
    EXPECT_EQ(status("1e"), DecimalStatus::Invalid);
    EXPECT_EQ(status("12x"), DecimalStatus::Invalid);
}

TEST(TraceNumber, ExactIntegers)
{
    std::int64_t v = 0;
    EXPECT_EQ(exactInteger("1790857026000000000", v), DecimalStatus::Ok);
    EXPECT_EQ(v, 1790857026000000000);
    EXPECT_EQ(exactInteger("7.0", v), DecimalStatus::Ok);
    EXPECT_EQ(v, 7);
    EXPECT_EQ(exactInteger("-1", v), DecimalStatus::Ok);
    EXPECT_EQ(v, -1);
    EXPECT_EQ(exactInteger("7.5", v), DecimalStatus::NotInteger);
    EXPECT_EQ(exactInteger("9223372036854775808", v), DecimalStatus::TooLarge);
}
