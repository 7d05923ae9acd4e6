// resistanceConvergence: error-vs-resolution table of the boundary-integral
// resistance solver for one shape (markdown rows for doc/hydrodynamics.md).
//   resistanceConvergence A B C EPS1 EPS2 R1 [R2 ...]
// Ellipsoids (eps1 = eps2 = 1): max relative error against the exact tensors
// (Pi relative to Omega of the same axis). Others: against the finest R.
#include "hydrodynamics/BoundaryIntegralResistance.hpp"
#include "hydrodynamics/EllipsoidResistance.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace sef;

namespace {

double maxRelDiff(const ResistanceTensors& r, const ResistanceTensors& ref) {
    double e = 0.0;
    for (int k = 0; k < 3; ++k) {
        e = std::max(e, std::abs(r.K[k] - ref.K[k]) / ref.K[k]);
        e = std::max(e, std::abs(r.Omega[k] - ref.Omega[k]) / ref.Omega[k]);
        e = std::max(e, std::abs(r.Pi[k] - ref.Pi[k]) / ref.Omega[k]);
    }
    return e;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 7) {
        std::fprintf(stderr, "usage: resistanceConvergence A B C EPS1 EPS2 R1 [R2 ...]\n");
        return 2;
    }
    const Superellipsoid shape(std::atof(argv[1]), std::atof(argv[2]), std::atof(argv[3]),
                               std::atof(argv[4]), std::atof(argv[5]));
    const bool ellipsoid = shape.eps1() == 1.0 && shape.eps2() == 1.0;
    std::vector<int> res;
    std::vector<ResistanceTensors> out;
    std::vector<double> secs;
    std::vector<int> nodes;
    for (int i = 6; i < argc; ++i) {
        res.push_back(std::atoi(argv[i]));
        const auto t0 = std::chrono::steady_clock::now();
        int n = 0;
        try {
            out.push_back(solveResistance(shape, res.back(), 2.0, &n));
        } catch (const std::exception& e) {
            std::fprintf(stderr, "n=%d: %s\n", res.back(), e.what());
            ResistanceTensors bad;
            bad.K.setConstant(NAN);
            out.push_back(bad);
        }
        nodes.push_back(n);
        secs.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    const ResistanceTensors ref =
        ellipsoid ? ellipsoidResistance(shape.a(), shape.b(), shape.c()) : out.back();
    for (size_t i = 0; i < res.size(); ++i) {
        const ResistanceTensors& r = out[i];
        std::printf("| %g/%g/%g eps %g,%g | %d | %d | %.2f | K %.4f %.4f %.4f | Omega %.3f %.3f %.3f "
                    "| Pi %.3f %.3f %.3f | %.2e |\n",
                    shape.a(), shape.b(), shape.c(), shape.eps1(), shape.eps2(), res[i], nodes[i],
                    secs[i], r.K[0], r.K[1], r.K[2], r.Omega[0], r.Omega[1], r.Omega[2], r.Pi[0],
                    r.Pi[1], r.Pi[2], maxRelDiff(r, ref));
    }
    if (ellipsoid)
        std::printf("| exact | | | | K %.4f %.4f %.4f | Omega %.3f %.3f %.3f | Pi %.3f %.3f %.3f | |\n",
                    ref.K[0], ref.K[1], ref.K[2], ref.Omega[0], ref.Omega[1], ref.Omega[2],
                    ref.Pi[0], ref.Pi[1], ref.Pi[2]);
    return 0;
}
