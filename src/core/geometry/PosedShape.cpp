#include "geometry/PosedShape.hpp"

namespace sef {

double implicitFunctionWorld(const Superellipsoid& s, const Pose& pose, const Vec3& xWorld) {
    return s.implicitFunction(pose.toBody(xWorld));
}

Vec3 gradientWorld(const Superellipsoid& s, const Pose& pose, const Vec3& xWorld) {
    return pose.directionToWorld(s.gradient(pose.toBody(xWorld)));
}

Mat3 hessianWorld(const Superellipsoid& s, const Pose& pose, const Vec3& xWorld) {
    const Mat3 R = pose.rotation();
    return R * s.hessian(pose.toBody(xWorld)) * R.transpose();
}

ImplicitDerivatives evaluateWorld(const Superellipsoid& s, const Pose& pose, const Vec3& xWorld) {
    const Mat3 R = pose.rotation();
    const ImplicitDerivatives d = s.evaluate(R.transpose() * (xWorld - pose.position));
    return {d.value, R * d.gradient, R * d.hessian * R.transpose()};
}

std::array<Mat3, 3> thirdDerivativesWorld(const Superellipsoid& s, const Pose& pose,
                                          const Vec3& xWorld) {
    const Mat3 R = pose.rotation();
    const std::array<Mat3, 3> Tb = s.thirdDerivatives(R.transpose() * (xWorld - pose.position));
    // T_w[i](j,k) = sum_l R(i,l) R Tb[l] R^T (j,k)
    std::array<Mat3, 3> rotated;
    for (int l = 0; l < 3; ++l) rotated[l] = R * Tb[l] * R.transpose();
    std::array<Mat3, 3> Tw;
    for (int i = 0; i < 3; ++i)
        Tw[i] = R(i, 0) * rotated[0] + R(i, 1) * rotated[1] + R(i, 2) * rotated[2];
    return Tw;
}

Vec3 supportPointWorld(const Superellipsoid& s, const Pose& pose, const Vec3& directionWorld) {
    return pose.toWorld(s.supportPoint(pose.directionToBody(directionWorld)));
}

double supportValueWorld(const Superellipsoid& s, const Pose& pose, const Vec3& directionWorld) {
    return s.supportValue(pose.directionToBody(directionWorld)) + directionWorld.dot(pose.position);
}

OrientedBox orientedBox(const Superellipsoid& s, const Pose& pose) {
    return {pose.position, pose.rotation(), s.halfAxes()};
}

AxisAlignedBox axisAlignedBox(const Superellipsoid& s, const Pose& pose) {
    // The shape is centrally symmetric, so the extent along -e equals that
    // along +e: h(e_i) = max over the body of x_i, with e_i in body coordinates
    // being row i of R.
    const Mat3 R = pose.rotation();
    Vec3 half;
    for (int i = 0; i < 3; ++i) half[i] = s.supportValue(R.row(i).transpose());
    return {pose.position - half, pose.position + half};
}

} // namespace sef
