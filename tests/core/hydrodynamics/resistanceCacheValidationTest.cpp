// Validation of cached resistance tensors (without it an edited cache
// with K negative is used as is: particles fall with no drag). An
// entry that parses but fails validateResistance is refused with a
// ResistanceCacheError naming the file and the component; the file is left
// as it is (never recomputed over).
#include "hydrodynamics/EllipsoidResistance.hpp"
#include "hydrodynamics/ResistanceCache.hpp"

#include <gtest/gtest.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <unistd.h>

using namespace sef;
namespace fs = std::filesystem;

namespace {

const Superellipsoid shape(1.5, 1.0, 1.0, 0.8, 1.0);

ResistanceSolverOptions coarse() {
    ResistanceSolverOptions opt;
    opt.resolution = 4;
    return opt;
}

std::string readAll(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// A cache directory holding one computed entry for `shape`.
class CacheEntry : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("sef-cache-validation-" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        computed_ = cachedResistance(shape, coarse(), dir_.string());
        for (const auto& f : fs::directory_iterator(dir_)) file_ = f.path();
        ASSERT_FALSE(file_.empty());
        original_ = readAll(file_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    // Replaces the line starting with `label ` by `line`.
    void edit(const std::string& label, const std::string& line) {
        std::istringstream in(readAll(file_));
        std::ostringstream out;
        bool found = false;
        for (std::string l; std::getline(in, l);) {
            const bool match = l.rfind(label + " ", 0) == 0;
            found = found || match;
            out << (match ? line : l) << '\n';
        }
        ASSERT_TRUE(found) << label;
        std::ofstream(file_) << out.str();
    }

    // The ResistanceCacheError of loading the entry ("none" if none).
    std::pair<std::string, std::string> refusal() {
        try {
            loadCachedResistance(shape, coarse(), dir_.string());
        } catch (const ResistanceCacheError& e) {
            EXPECT_EQ(e.path(), file_.string());
            return {e.component(), e.what()};
        }
        return {"none", ""};
    }

    fs::path dir_, file_;
    std::string original_;
    NumericalResistance computed_;
};

} // namespace

TEST_F(CacheEntry, ComputedEntryIsValidAndReadBack) {
    EXPECT_TRUE(validateResistance(shape, computed_).valid());
    const auto hit = loadCachedResistance(shape, coarse(), dir_.string());
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->tensors.K, computed_.tensors.K);
}

TEST_F(CacheEntry, NegativeKIsRefusedNamingFileAndComponent) {
    edit("K", "K 7 -6 6.5");
    const std::string edited = readAll(file_);
    const auto [component, what] = refusal();
    EXPECT_EQ(component, "K[1]");
    EXPECT_EQ(what.rfind("resistance cache entry " + file_.string() + " (v3-cdl a/c=1.5 ", 0), 0u) << what;
    EXPECT_NE(what.find("is invalid: K[1] = -6 is outside ["), std::string::npos) << what;
    EXPECT_NE(what.find("(positive definite, between the inscribed and the bounding sphere); "
                        "delete the file to recompute it"),
              std::string::npos)
        << what;
    // cachedResistance refuses too, and leaves the file as it is.
    EXPECT_THROW(cachedResistance(shape, coarse(), dir_.string()), ResistanceCacheError);
    EXPECT_EQ(readAll(file_), edited);
}

TEST_F(CacheEntry, EveryKindOfBadValueIsRefused) {
    struct Case {
        std::string label, line, component, words;
    };
    for (const Case& c : std::vector<Case>{
             {"K", "K 1e10 6 6", "K[0]", "1e+10 is outside"},                  // far too much drag
             {"K", "K 6 0 6", "K[1]", "0 is outside"},                         // singular
             {"K", "K 6 6 nan", "K[2]", "nan is not finite"},                  // not a number
             {"Omega", "Omega 8 -8 8", "Omega[1]", "-8 is outside"},           // rotation block
             {"Omega", "Omega inf 8 8", "Omega[0]", "inf is not finite"},
             {"Omega", "Omega 8 1e400 8", "Omega[1]", "inf is not finite"},  // overflows on reading
             {"Pi", "Pi 0 0 50", "Pi[2]", "50 exceeds Omega[2]"},             // coupling block
             {"dK", "dK 0 -1e-3 0", "dK[1]", "-0.001 is outside"},            // error estimate
             {"nodes", "nodes 0 0.5", "nodes", "0 is not > 0"},
         }) {
        std::ofstream(file_) << original_; // fresh entry
        edit(c.label, c.line);
        const auto [component, what] = refusal();
        EXPECT_EQ(component, c.component) << c.line;
        EXPECT_NE(what.find(c.component + " = " + c.words), std::string::npos) << c.line << ": " << what;
    }
}

TEST_F(CacheEntry, UnparsableEntryIsStillAMiss) {
    edit("Omega", "Omega 8 8"); // truncated line: the next label is read as a number
    EXPECT_FALSE(loadCachedResistance(shape, coarse(), dir_.string()).has_value());
}

TEST(ResistanceValidation, ExactEllipsoidTensorsPassTheBounds) {
    // Exact values satisfy the minimum-dissipation bounds and |Pi| <= Omega
    // with no tolerance at all: prolate, oblate and triaxial up to 1:50.
    for (const Vec3& h : {Vec3(1, 1, 1), Vec3(50, 1, 1), Vec3(50, 50, 1), Vec3(5, 2, 1), Vec3(1.01, 1, 1),
                         Vec3(20, 3, 1)}) {
        NumericalResistance r;
        r.tensors = ellipsoidResistance(h.x(), h.y(), h.z());
        r.nodes = 1;
        const Superellipsoid s(h.x(), h.y(), h.z(), 1, 1);
        const ResistanceProblem p = validateResistance(s, r);
        EXPECT_TRUE(p.valid()) << h.transpose() << ": " << p.component << " " << p.reason;
        const double c = h.minCoeff();
        const double rIn = 1.0 / std::sqrt(h.cwiseInverse().squaredNorm()) / c;
        for (int k = 0; k < 3; ++k) {
            EXPECT_GE(r.tensors.K[k], 6.0 * rIn);
            EXPECT_LE(r.tensors.K[k], 6.0 * s.boundingRadius() / c * (1 + 1e-12));
            EXPECT_LT(std::abs(r.tensors.Pi[k]), r.tensors.Omega[k]);
        }
    }
}

TEST(ResistanceValidation, ToleranceEdgesOfTheSphere) {
    // Sphere: K = 6 R / c exactly at the upper bound; 9.9 % above is
    // accepted as discretisation error, 10.1 % is not.
    const Superellipsoid sphere(1, 1, 1, 1, 1);
    NumericalResistance r;
    r.nodes = 1;
    r.tensors.K = Vec3(6.0 * 1.099, 6.0, 6.0);
    EXPECT_TRUE(validateResistance(sphere, r).valid());
    r.tensors.K = Vec3(6.0 * 1.101, 6.0, 6.0);
    EXPECT_EQ(validateResistance(sphere, r).component, "K[0]");
    r.tensors.K = Vec3::Constant(6.0);
    r.tensors.Omega = Vec3(8.0, 8.0 * 1.101, 8.0);
    EXPECT_EQ(validateResistance(sphere, r).component, "Omega[1]");
}

TEST(ResistanceValidation, InvalidResultsAreNotStored) {
    const fs::path dir = fs::temp_directory_path() / ("sef-cache-store-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    NumericalResistance r;
    r.nodes = 1;
    r.tensors.K = Vec3(6.0, -6.0, 6.0);
    EXPECT_FALSE(storeCachedResistance(Superellipsoid(1, 1, 1, 1, 1), coarse(), r, dir.string()));
    EXPECT_FALSE(fs::exists(dir) && !fs::is_empty(dir));
    fs::remove_all(dir);
}
