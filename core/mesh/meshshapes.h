// Meshes made in code: shared by the tests, the benchmark and the test-data script's
// expectations, so "a 5,000-triangle sphere" is the same mesh everywhere.
#pragma once

#include "mesh/meshdata.h"

namespace drape {

/// A UV sphere centred at the origin: `rings` bands from pole to pole (>= 2) and `segments`
/// around (>= 3), one vertex at each pole, 2·segments·(rings − 1) triangles, counter-clockwise
/// from outside, with UVs (u around, v from the south pole up).
MeshGeometry makeUvSphereMesh(float radius, int rings, int segments);

} // namespace drape
