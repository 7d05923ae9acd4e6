#pragma once
// x^y for many independent (x, y) at once, four at a time in vector
// registers: out[i] = x[i]^y[i], i < count.
//
// Why: the support map of a blocky shape whose exponents FastPow
// has no closed form for (eps = 0.2: 1/9 and -1/10) raised to them with
// glibc's pow, one call at a time, and those calls were 26 % of a warm
// blocky pair query (perf), although the cap searches of a patch already
// evaluate up to 16 directions side by side (SupportKernel::supportLanes).
// Measured (AVX2, this machine): 4.6 ns per power in batches of 48 against
// 10.1 ns for glibc; a single power 32.5 against 31 ns, two 39.5 against
// 41 ns (latency: exp and log in a chain).
//
// How: x^y = e^(y ln x). ln x = k ln 2 + ln c_j + ln(1 + r) with x = 2^k m,
// c_j = 1 + j/128 the nearest table point to m and |r| <= 1/256 (series to
// r^6); e^z = 2^(n/128) e^r, |r| <= ln(2)/256 (series to r^5), 2^(n/128)
// from the exponent bits and a table. ln 2 in two parts (Cody-Waite), so the
// reductions lose nothing.
// Relative error, against long double powl: below (4 + 1.5 |y ln x|) eps
// (eps = 2^-52; the rounding of y ln x is amplified by |y ln x|, which
// glibc avoids with double-double arithmetic); 6.8 eps at most for the
// blocky support map's powers (eps = 0.2, 0.25). 1^y = 1 exactly.
//
// Determinism: only IEEE additions, multiplications, exact bit operations
// and table lookups, no fused multiply-add, so every power has the same bits
// in a batch of four vector lanes (AVX2, where the CPU has it), alone, or in
// the portable build (one by one): a run does not depend on the batching or
// on the machine's vector width.
//
// Domain: x positive, normal and finite, |y| <= 1e6, |y ln x| <= 700 (no
// overflow or subnormal result). Other inputs (x = 0, infinities, NaN,
// subnormals, huge exponents) get std::pow's value, and no floating-point
// exception is raised for them inside the vector code (OpenFOAM traps
// overflow and invalid operations).
namespace sef {

void powLanes(const double* x, const double* y, double* out, int count);

// The two builds powLanes chooses from, for tests (call the AVX2 one only
// where hasAvx2()).
namespace detail {
void powLanesAvx2(const double* x, const double* y, double* out, int count);
void powLanesPortable(const double* x, const double* y, double* out, int count);
bool hasAvx2();
} // namespace detail

} // namespace sef
