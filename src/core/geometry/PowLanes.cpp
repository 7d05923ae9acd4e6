#include "geometry/PowLanes.hpp"

// (the vector helpers are internal and always inlined: the ABI of passing
// 32-byte vectors between them never matters)
#pragma GCC diagnostic ignored "-Wpsabi"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace sef {

namespace {

// Four lanes in GCC's generic vectors: one AVX register, two SSE2 ones.
typedef double Doubles __attribute__((vector_size(32)));
typedef std::int64_t Bits __attribute__((vector_size(32)));
typedef std::uint64_t UnsignedBits __attribute__((vector_size(32)));

// (always inlined: a helper compiled for the default target is not inlined
// into the AVX2 clone otherwise, and a call per stage costs more than the stage)
#define SEF_LANE_INLINE __attribute__((always_inline)) inline

constexpr int kTableBits = 7, kTableSize = 1 << kTableBits;
constexpr double kLn2 = 0.6931471805599453;
constexpr double kLn2High = 0x1.62e42fefa3800p-1; // trailing zero bits: k kLn2High is exact
constexpr double kLn2Low = 0x1.ef35793c76730p-45; // ln 2 - kLn2High
constexpr double kStepHigh = 0x1.62e42fefa0000p-8; // ln(2)/128, trailing zero bits: n kStepHigh exact
constexpr double kStepLow = (kLn2High / kTableSize - kStepHigh) + kLn2Low / kTableSize; // (each step exact)
constexpr double kRoundingShift = 0x1.8p52; // t + shift - shift: t rounded to an integer
constexpr double kLargestExponent = 700.0;  // |y ln x| beyond: std::pow (overflow, subnormals)
constexpr double kLargestY = 1e6;           // keeps y ln x far from overflow

// log: c_j = 1 + j/128 (j = 0..128, exact), 1/c_j and ln c_j in two
// parts; exp: 2^(j/128). In long double (x87: the same bits on every x86-64
// machine), rounded once. c_0 = 1, so 1^y = 1 exactly.
struct Tables {
    double centre[kTableSize + 1], inverseCentre[kTableSize + 1], logHigh[kTableSize + 1], logLow[kTableSize + 1];
    double twoToJ[kTableSize];
    Tables() {
        for (int j = 0; j <= kTableSize; ++j) {
            const long double c = 1.0L + static_cast<long double>(j) / kTableSize;
            centre[j] = static_cast<double>(c);
            inverseCentre[j] = static_cast<double>(1.0L / c);
            const long double log = logl(c);
            logHigh[j] = static_cast<double>(log);
            logLow[j] = static_cast<double>(log - static_cast<long double>(logHigh[j]));
        }
        for (int j = 0; j < kTableSize; ++j)
            twoToJ[j] = static_cast<double>(exp2l(static_cast<long double>(j) / kTableSize));
    }
};

const Tables& tables() {
    static const Tables t;
    return t;
}

// The algorithm, written once for one double (Scalar) and four (Lanes):
// the same IEEE operations in the same order, so the same bits.
struct Scalar {
    using D = double;
    using B = std::int64_t;
    static D splat(double d) { return d; }
    static B splatBits(std::int64_t b) { return b; }
    static D fromBits(B b) {
        D d;
        std::memcpy(&d, &b, sizeof d);
        return d;
    }
    static B toBits(D d) {
        B b;
        std::memcpy(&b, &d, sizeof b);
        return b;
    }
    static B shiftRight(B b, int n) { return static_cast<B>(static_cast<std::uint64_t>(b) >> n); }
    static D gather(const double* table, B j) { return table[j]; }
};

struct Lanes {
    using D = Doubles;
    using B = Bits;
    SEF_LANE_INLINE static D splat(double d) { return D{d, d, d, d}; }
    SEF_LANE_INLINE static B splatBits(std::int64_t b) { return B{b, b, b, b}; }
    SEF_LANE_INLINE static D fromBits(const B& b) {
        D d;
        std::memcpy(&d, &b, sizeof d);
        return d;
    }
    SEF_LANE_INLINE static B toBits(const D& d) {
        B b;
        std::memcpy(&b, &d, sizeof b);
        return b;
    }
    SEF_LANE_INLINE static B shiftRight(const B& b, int n) {
        UnsignedBits u;
        std::memcpy(&u, &b, sizeof u);
        u >>= n;
        B out;
        std::memcpy(&out, &u, sizeof out);
        return out;
    }
    SEF_LANE_INLINE static D gather(const double* table, const B& j) {
        return D{table[j[0]], table[j[1]], table[j[2]], table[j[3]]};
    }
};

// y ln x for positive normal x: x = 2^k m, m in [1, 2), c_j the table
// point nearest to m, r = (m - c_j)/c_j (|r| <= 1/256):
// ln x = k ln 2 + ln c_j + ln(1 + r). m - c_j is exact (8-bit c_j, both
// in [1, 2]), so r errs by its own rounding only (m/c_j - 1 would err by
// an ulp of 1, which y then multiplies).
template <class V>
SEF_LANE_INLINE typename V::D yLogX(const Tables& T, const typename V::D& x, const typename V::D& y) {
    using D = typename V::D;
    using B = typename V::B;
    const B bits = V::toBits(x);
    const B mantissa = bits & V::splatBits(0x000FFFFFFFFFFFFFLL);
    const D m = V::fromBits(mantissa | V::splatBits(0x3FF0000000000000LL));
    // k as a double: 2^52 + (k + 1023) has k + 1023 as its mantissa
    const D k = V::fromBits(V::shiftRight(bits, 52) | V::splatBits(0x4330000000000000LL)) -
                V::splat(0x1p52 + 1023.0);
    const B j = V::shiftRight(mantissa + V::splatBits(1LL << (51 - kTableBits)), 52 - kTableBits); // rounded
    const D r = (m - V::gather(T.centre, j)) * V::gather(T.inverseCentre, j);
    // ln(1 + r) = r - r^2/2 + r^3 (1/3 - r/4 + r^2/5 - r^3/6) (truncation < 2e-18)
    const D r2 = r * r;
    const D a0 = V::splat(1.0 / 3) - V::splat(0.25) * r, a1 = V::splat(0.2) - V::splat(1.0 / 6) * r;
    const D tail = r2 * r * (a0 + a1 * r2) - V::splat(0.5) * r2;
    const D high = k * V::splat(kLn2High) + V::gather(T.logHigh, j);
    const D low = r + (tail + (k * V::splat(kLn2Low) + V::gather(T.logLow, j)));
    return y * high + y * low;
}

// e^z for |z| <= kLargestExponent: z = n ln(2)/128 + r, |r| <= ln(2)/256,
// e^z = 2^(n >> 7) 2^((n & 127)/128) e^r.
template <class V>
SEF_LANE_INLINE typename V::D expOf(const Tables& T, const typename V::D& z) {
    using D = typename V::D;
    using B = typename V::B;
    const D shifted = z * V::splat(kTableSize / kLn2) + V::splat(kRoundingShift);
    const D n = shifted - V::splat(kRoundingShift);
    // n + 1023 * 128 as an integer (>= 0): top bits 2^k's biased exponent, low 7 bits the table index
    const B biasedN = V::toBits(shifted) - V::toBits(V::splat(kRoundingShift)) + V::splatBits(1023 * kTableSize);
    const D r = (z - n * V::splat(kStepHigh)) - n * V::splat(kStepLow);
    // e^r - 1 = r + r^2 (1/2 + r/6 + r^2/24 + r^3/120) (truncation < 3e-19)
    const D r2 = r * r;
    const D q = r + r2 * ((V::splat(0.5) + V::splat(1.0 / 6) * r) +
                          r2 * (V::splat(1.0 / 24) + V::splat(1.0 / 120) * r));
    const D t = V::gather(T.twoToJ, biasedN & V::splatBits(kTableSize - 1));
    const D twoToK = V::fromBits(V::shiftRight(biasedN, kTableBits) << 52);
    return (t + t * q) * twoToK;
}

// The domain, tested on the bits (integer comparisons: a NaN raises no
// invalid-operation flag, which an ordered floating-point comparison would):
// x positive, normal and finite; |y| <= kLargestY.
constexpr std::int64_t kSmallestNormalBits = 0x0010000000000000LL;
constexpr std::int64_t kLargestFiniteBits = 0x7FEFFFFFFFFFFFFFLL;
constexpr std::int64_t kMagnitudeMask = 0x7FFFFFFFFFFFFFFFLL;
constexpr std::int64_t kLargestYBits = 0x412E848000000000LL; // 1e6
static_assert(kLargestY == 1e6, "kLargestYBits are the bits of kLargestY");

SEF_LANE_INLINE double powOne(const Tables& T, double x, double y) {
    const std::int64_t xBits = Scalar::toBits(x), yBits = Scalar::toBits(y);
    if (!(xBits >= kSmallestNormalBits && xBits <= kLargestFiniteBits && (yBits & kMagnitudeMask) <= kLargestYBits))
        return std::pow(x, y);
    const double z = yLogX<Scalar>(T, x, y);
    if (!(z >= -kLargestExponent && z <= kLargestExponent)) return std::pow(x, y);
    return expOf<Scalar>(T, z);
}

// Four lanes; returns the lanes outside the domain (out unspecified there).
SEF_LANE_INLINE Bits powFour(const Tables& T, const double* x, const double* y, double* out) {
    Doubles xs, ys;
    std::memcpy(&xs, x, sizeof xs);
    std::memcpy(&ys, y, sizeof ys);
    const auto select = [](const Bits& mask, const Doubles& a, const Doubles& b) {
        return Lanes::fromBits((Lanes::toBits(a) & mask) | (Lanes::toBits(b) & ~mask));
    };
    const Bits xBits = Lanes::toBits(xs), yBits = Lanes::toBits(ys);
    const Bits inDomain = (xBits >= Lanes::splatBits(kSmallestNormalBits)) &
                          (xBits <= Lanes::splatBits(kLargestFiniteBits)) &
                          ((yBits & Lanes::splatBits(kMagnitudeMask)) <= Lanes::splatBits(kLargestYBits));
    // Lanes outside the domain compute 1^0 instead: no overflow or invalid
    // operation (OpenFOAM traps them) from a lane whose answer is discarded.
    // (z is then finite: |y ln x| <= 1e6 * 745)
    const Doubles z = yLogX<Lanes>(T, select(inDomain, xs, Lanes::splat(1.0)), select(inDomain, ys, Lanes::splat(0.0)));
    const Bits good = inDomain & (z >= Lanes::splat(-kLargestExponent)) & (z <= Lanes::splat(kLargestExponent));
    const Doubles result = expOf<Lanes>(T, select(good, z, Lanes::splat(0.0)));
    std::memcpy(out, &result, sizeof result);
    return ~good;
}

} // namespace

namespace detail {

// AVX2 (four lanes per instruction): blocks of four, the rest one by one.
__attribute__((target("avx2"))) void powLanesAvx2(const double* x, const double* y, double* out, int count) {
    const Tables& T = tables();
    int i = 0;
    for (; i + 4 <= count; i += 4) {
        const Bits outside = powFour(T, x + i, y + i, out + i);
        if ((outside[0] | outside[1] | outside[2] | outside[3]) != 0) // rare
            for (int l = 0; l < 4; ++l)
                if (outside[l] != 0) out[i + l] = std::pow(x[i + l], y[i + l]);
    }
    for (; i < count; ++i) out[i] = powOne(T, x[i], y[i]);
}

// Other CPUs: one by one (the four-lane code in pairs of SSE2 registers,
// with its table lookups lane by lane, was slower than glibc: 13.4 against
// 10.1 ns per power; one by one 9.2).
void powLanesPortable(const double* x, const double* y, double* out, int count) {
    const Tables& T = tables();
    for (int i = 0; i < count; ++i) out[i] = powOne(T, x[i], y[i]);
}

bool hasAvx2() { return __builtin_cpu_supports("avx2"); }

} // namespace detail

// The same bits either way (header); the CPU decides once.
void powLanes(const double* x, const double* y, double* out, int count) {
    static const auto run = detail::hasAvx2() ? &detail::powLanesAvx2 : &detail::powLanesPortable;
    run(x, y, out, count);
}

} // namespace sef
