// main() of every core test executable: GoogleTest with the floating-point
// traps OpenFOAM runs under (FloatingPointTraps.hpp). A trapped operation
// anywhere in the core kills the test executable with SIGFPE, and CTest
// reports the test that was running.
#include "FloatingPointTraps.hpp"

#include <gtest/gtest.h>

int main(int argc, char** argv) {
    testing::InitGoogleTest(&argc, argv);
    sef::test::enableFloatingPointTraps();
    return RUN_ALL_TESTS();
}
