// superellipsoidResistance: K, Omega, Pi diagonals of one superellipsoid in
// the normalisation of [Superellipsoid-OpenFOAM] (eqs. 5 and 21; c = smallest half-axis).
//   superellipsoidResistance --a A --b B --c C --eps1 E1 --eps2 E2
//                            [--resolution R] [--json]
// Results are cached (SEF_RESISTANCE_CACHE or ~/.cache/superellipsoidFoam/
// resistance). Bad input: message on stderr, exit status 2.
#include "hydrodynamics/ResistanceCache.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>

namespace {

constexpr const char* usage =
    "usage: superellipsoidResistance --a A --b B --c C --eps1 E1 --eps2 E2 "
    "[--resolution R] [--json]\n";

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

double parseNumber(const std::string& name, const std::string& text) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(v))
        throw UsageError("--" + name + ": not a finite number: '" + text + "'");
    return v;
}

void printVec(const char* name, const sef::Vec3& v) {
    std::printf("%s: %.10g %.10g %.10g\n", name, v[0], v[1], v[2]);
}

void printJsonVec(const char* name, const sef::Vec3& v, bool last) {
    std::printf("  \"%s\": [%.10g, %.10g, %.10g]%s\n", name, v[0], v[1], v[2], last ? "" : ",");
}

} // namespace

int main(int argc, char** argv) {
    std::map<std::string, std::string> values;
    bool json = false;
    try {
        for (int i = 1; i < argc; ++i) {
            const std::string arg = argv[i];
            if (arg == "--json") {
                json = true;
            } else if (arg == "--help" || arg == "-h") {
                std::cout << usage;
                return 0;
            } else if (arg == "--a" || arg == "--b" || arg == "--c" || arg == "--eps1"
                       || arg == "--eps2" || arg == "--resolution") {
                if (i + 1 >= argc) throw UsageError(arg + ": missing value");
                values[arg.substr(2)] = argv[++i];
            } else {
                throw UsageError("unknown option '" + arg + "'");
            }
        }
        for (const char* name : {"a", "b", "c", "eps1", "eps2"})
            if (!values.count(name)) throw UsageError(std::string("--") + name + ": required");
        sef::ResistanceSolverOptions options;
        if (values.count("resolution")) {
            const double r = parseNumber("resolution", values["resolution"]);
            // 24: ~14000 nodes, 6 dense systems of 5184 unknowns (215 MB each).
            if (r != std::floor(r) || r < 2 || r > 24)
                throw UsageError("--resolution: must be an integer in [2, 24], got '"
                                 + values["resolution"] + "'");
            options.resolution = static_cast<int>(r);
        }
        // Throws sef::ShapeError naming the parameter.
        const sef::Superellipsoid shape(
            parseNumber("a", values["a"]), parseNumber("b", values["b"]),
            parseNumber("c", values["c"]), parseNumber("eps1", values["eps1"]),
            parseNumber("eps2", values["eps2"]));
        const sef::NumericalResistance r = sef::cachedResistance(shape, options);
        if (json) {
            std::printf("{\n");
            printJsonVec("K", r.tensors.K, false);
            printJsonVec("Omega", r.tensors.Omega, false);
            printJsonVec("Pi", r.tensors.Pi, false);
            std::printf("  \"errorEstimate\": {\n  ");
            printJsonVec("K", r.errorEstimate.K, false);
            std::printf("  ");
            printJsonVec("Omega", r.errorEstimate.Omega, false);
            std::printf("  ");
            printJsonVec("Pi", r.errorEstimate.Pi, true);
            std::printf("  },\n  \"resolution\": %d,\n  \"nodes\": %d\n}\n", r.resolution,
                        r.nodes);
        } else {
            printVec("K", r.tensors.K);
            printVec("Omega", r.tensors.Omega);
            printVec("Pi", r.tensors.Pi);
        }
        return 0;
    } catch (const UsageError& e) {
        std::cerr << "superellipsoidResistance: " << e.what() << '\n' << usage;
        return 2;
    } catch (const std::invalid_argument& e) { // ShapeError and friends
        std::cerr << "superellipsoidResistance: bad input: " << e.what() << '\n' << usage;
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "superellipsoidResistance: " << e.what() << '\n';
        return 1;
    }
}
