#pragma once
// Whether a support point lies on a flat face (flatSupportAt,
// contact/ContactPatch.hpp), for the two bodies of a pair at once. Shared
// by the stages of the patch (ContactPatch*.cpp).
#include "contact/PosedBody.hpp"

namespace sef::contactPatch {

// flatSupportAt of body1 along d1 (support point p1) and of body2 along d2
// (p2); probes of both bodies are evaluated together.
void flatSupportsAt(const PosedBody& body1, const Vec3& d1, const Vec3& p1, const PosedBody& body2,
                    const Vec3& d2, const Vec3& p2, bool& flat1, bool& flat2);

} // namespace sef::contactPatch
