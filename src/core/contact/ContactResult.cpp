#include "contact/ContactResult.hpp"

namespace sef {

const char* toString(ContactStatus status) {
    switch (status) {
    case ContactStatus::closedForm: return "closedForm";
    case ContactStatus::newton: return "newton";
    case ContactStatus::fallback: return "fallback";
    case ContactStatus::boundingSphere: return "boundingSphere";
    case ContactStatus::orientedBox: return "orientedBox";
    }
    return "unknown";
}

} // namespace sef
