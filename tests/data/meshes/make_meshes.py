#!/usr/bin/env python3
"""Writes the small test meshes in this folder (checked in; run again only to change them).

    python3 make_meshes.py          # the OBJ and STL files, by hand-written text
    python3 make_meshes.py --export # also the PLY, glTF, GLB, FBX and COLLADA copies of
                                    # uv_sphere.obj, through the `assimp export` program (FBX as
                                    # ASCII: assimp 5.2 cannot read back its own binary FBX)
                                    # (Debian package assimp-utils; not needed to build or test)

Files and what tests/tst_meshimport.cpp expects of them:
  uv_sphere.obj    radius 0.5 m, 8 rings × 16 segments: 114 vertices, 224 triangles, closed, UVs
                   (UV seam: the first column is repeated with u = 1, welded on import)
  grid_uv.obj      1 m × 1 m grid of 5 × 5 vertices in the XZ plane, 32 triangles, UVs in [0, 1]
  nonmanifold.obj  two triangles plus a third on their shared edge (a fin): 1 non-manifold edge
  degenerate.obj   a unit quad (2 triangles) plus a repeated-corner, a zero-area and a duplicate triangle
  nan.obj          a quad plus a triangle with a NaN vertex
  zup_box.stl      ASCII STL, a 0.2 × 0.2 × 1 box standing along +Z (1 m tall in Z), 12 triangles
  empty.obj        no bytes
"""
import math
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))


def write(name, text):
    with open(os.path.join(here, name), "w", newline="\n") as f:
        f.write(text)


def uv_sphere(radius=0.5, rings=8, segments=16):
    lines = ["# UV sphere, radius 0.5 m, 8 rings x 16 segments, made by make_meshes.py"]
    verts, uvs = [], []
    # Columns 0..segments (the last repeats the first with u = 1: a UV seam).
    for r in range(rings + 1):
        theta = math.pi * r / rings
        for s in range(segments + 1):
            phi = 2 * math.pi * s / segments
            verts.append((radius * math.sin(theta) * math.cos(phi), -radius * math.cos(theta),
                          -radius * math.sin(theta) * math.sin(phi)))
            uvs.append((s / segments, r / rings))
    for v in verts:
        lines.append("v %.6f %.6f %.6f" % v)
    for t in uvs:
        lines.append("vt %.6f %.6f" % t)
    idx = lambda r, s: r * (segments + 1) + s + 1
    for r in range(rings):
        for s in range(segments):
            a, b, c, d = idx(r, s), idx(r, s + 1), idx(r + 1, s + 1), idx(r + 1, s)
            if r > 0:
                lines.append("f %d/%d %d/%d %d/%d" % (a, a, b, b, c, c))
            if r < rings - 1:
                lines.append("f %d/%d %d/%d %d/%d" % (a, a, c, c, d, d))
    write("uv_sphere.obj", "\n".join(lines) + "\n")


def grid_uv(n=5):
    lines = ["# 1 m x 1 m grid, 5 x 5 vertices in the XZ plane, facing +Y, made by make_meshes.py"]
    for j in range(n):
        for i in range(n):
            lines.append("v %.6f 0 %.6f" % (i / (n - 1) - 0.5, j / (n - 1) - 0.5))
    for j in range(n):
        for i in range(n):
            lines.append("vt %.6f %.6f" % (i / (n - 1), 1 - j / (n - 1)))
    k = lambda i, j: j * n + i + 1
    for j in range(n - 1):
        for i in range(n - 1):
            a, b, c, d = k(i, j), k(i + 1, j), k(i + 1, j + 1), k(i, j + 1)
            lines.append("f %d/%d %d/%d %d/%d" % (a, a, d, d, c, c))
            lines.append("f %d/%d %d/%d %d/%d" % (a, a, c, c, b, b))
    write("grid_uv.obj", "\n".join(lines) + "\n")


def small_files():
    write("nonmanifold.obj", "# two triangles and a fin on their shared edge (1-2)\n"
          "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nv 1 1 0.5\n"
          "f 1 3 2\nf 1 4 3\nf 1 5 3\n")
    write("degenerate.obj", "# a unit quad, then a repeated-corner, a zero-area and a duplicate triangle\n"
          "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nv 0.5 0 0\n"
          "f 1 3 2\nf 1 4 3\nf 1 1 2\nf 1 5 2\nf 3 2 1\n")
    write("nan.obj", "# a unit quad and a triangle with a NaN vertex\n"
          "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nv nan 0 0\n"
          "f 1 3 2\nf 1 4 3\nf 1 5 2\n")
    write("empty.obj", "")
    # Box 0.2 x 0.2 x 1 standing on z = 0 along +Z; outward-facing triangles.
    x0, x1, y0, y1, z0, z1 = -0.1, 0.1, -0.1, 0.1, 0.0, 1.0
    c = [(x, y, z) for z in (z0, z1) for y in (y0, y1) for x in (x0, x1)]
    quads = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]
    out = ["solid zup_box"]
    for q in quads:
        for tri in ((q[0], q[1], q[2]), (q[0], q[2], q[3])):
            out.append("  facet normal 0 0 0\n    outer loop")
            for i in tri:
                out.append("      vertex %g %g %g" % c[i])
            out.append("    endloop\n  endfacet")
    out.append("endsolid zup_box")
    write("zup_box.stl", "\n".join(out) + "\n")


def export_copies():
    src = os.path.join(here, "uv_sphere.obj")
    for ext, fmt in (("ply", "ply"), ("gltf", "gltf2"), ("glb", "glb2"), ("fbx", "fbxa"), ("dae", "collada")):
        subprocess.run(["assimp", "export", src, os.path.join(here, "uv_sphere." + ext), "-f" + fmt],
                       check=True, stdout=subprocess.DEVNULL)


uv_sphere()
grid_uv()
small_files()
if "--export" in sys.argv:
    export_copies()
