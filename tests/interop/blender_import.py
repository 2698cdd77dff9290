"""Imports mesh files into Blender and reports what arrived (tests/interop/blender.test.ts).

blender -b --factory-startup --python tests/interop/blender_import.py -- job.json result.json

job.json: {"expected": {"positions": [...], "normals": [...], "colors": [...]},   (viscid's y-up mesh)
           "files": [{"format": "obj" | "ply" | "glb", "path": "..."}]}
For each file: vertex and face counts, bounds and, vertex by vertex (matched on position, back in
viscid's y-up frame), the largest normal and colour differences from what viscid wrote.
"""
import json
import sys

import bpy

try:  # Blender 3.4's glTF importer still uses numpy.bool, which numpy 1.24 removed.
    import numpy
    if not hasattr(numpy, "bool"):
        numpy.bool = bool
except ImportError:
    numpy = None

job_path, result_path = sys.argv[sys.argv.index("--") + 1:][:2]
job = json.load(open(job_path))
exp = job["expected"]
n = len(exp["positions"]) // 3
key_of = lambda x, y, z: (round(x * 1e5), round(y * 1e5), round(z * 1e5))
# viscid's vertices by 10 µm cell; two vertices may share a cell (a surface can have edges of a
# few µm), so a cell holds a list and a lookup takes the nearest vertex within 10 µm.
index = {}
for i in range(n):
    index.setdefault(key_of(*exp["positions"][3 * i:3 * i + 3]), []).append(i)


def nearest(p):
    """viscid's vertex nearest to p (within 10 µm), or None."""
    kx, ky, kz = key_of(*p)
    best, best_d = None, 1e-10  # (10 µm)^2
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            for dz in (-1, 0, 1):
                for i in index.get((kx + dx, ky + dy, kz + dz), ()):
                    q = exp["positions"][3 * i:3 * i + 3]
                    d = (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 + (p[2] - q[2]) ** 2
                    if d <= best_d:
                        best, best_d = i, d
    return best


def srgb_to_linear(c):
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def import_file(fmt, path):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    if fmt == "obj":
        bpy.ops.wm.obj_import(filepath=path)
    elif fmt == "ply":
        if "ply_import" in dir(bpy.ops.wm):  # Blender 3.6 and later: reads the file's normals
            bpy.ops.wm.ply_import(filepath=path)
        else:  # Blender 3.4's Python importer: positions, faces and colours; its own normals
            bpy.ops.import_mesh.ply(filepath=path)
    elif fmt == "glb":
        bpy.ops.import_scene.gltf(filepath=path)
    meshes = [o for o in bpy.context.scene.objects if o.type == "MESH"]
    return meshes


def report(fmt, path):
    meshes = import_file(fmt, path)
    out = {"format": fmt, "objects": len(meshes)}
    if len(meshes) != 1:
        return out
    obj = meshes[0]
    me = obj.data
    out["vertices"] = len(me.vertices)
    out["faces"] = len(me.polygons)
    out["triangles"] = sum(1 for p in me.polygons if len(p.vertices) == 3)
    # World coordinates back in viscid's frame: the OBJ and glTF importers turn y-up into
    # Blender's z-up; Blender 3.4's PLY importer takes the coordinates as written.
    mw = obj.matrix_world
    world = [mw @ v.co for v in me.vertices]
    frames = {"y-up converted to z-up": lambda w: (w.x, w.z, -w.y), "as written": lambda w: (w.x, w.y, w.z)}
    best = max(frames, key=lambda f: sum(1 for w in world if key_of(*frames[f](w)) in index))
    to_viscid = frames[best]
    out["axes"] = best
    up = [to_viscid(w) for w in world]
    out["bounds"] = {"min": [min(p[k] for p in up) for k in range(3)], "max": [max(p[k] for p in up) for k in range(3)]}
    matched = [nearest(p) for p in up]
    # Each of viscid's vertices found once: a count of distinct matches.
    out["matched"] = len(set(m for m in matched if m is not None))
    # Normals: the custom split normals of each vertex's corners, in the same frame.
    me.calc_normals_split()
    rot = mw.to_3x3()
    normal_err = 0.0
    for loop in me.loops:
        i = matched[loop.vertex_index]
        if i is None:
            continue
        w = rot @ loop.normal
        w.normalize()
        got = to_viscid(w)
        want = exp["normals"][3 * i:3 * i + 3]
        normal_err = max(normal_err, max(abs(got[k] - want[k]) for k in range(3)))
    out["normalError"] = normal_err
    # Blender's own vertex normals (from the geometry, what Shade Smooth shows) against viscid's.
    smooth_err = 0.0
    for v in me.vertices:
        i = matched[v.index]
        if i is None:
            continue
        w = rot @ v.normal
        w.normalize()
        got = to_viscid(w)
        want = exp["normals"][3 * i:3 * i + 3]
        smooth_err = max(smooth_err, sum((got[k] - want[k]) ** 2 for k in range(3)) ** 0.5)
    out["smoothNormalError"] = smooth_err
    # Colours: the first colour attribute, on points or corners, as linear RGB.
    attrs = list(getattr(me, "color_attributes", []))
    out["colorAttributes"] = [(a.name, a.domain, a.data_type) for a in attrs]
    if attrs and exp.get("colors"):
        a = attrs[0]
        color_err = 0.0
        elements = range(len(me.vertices)) if a.domain == "POINT" else range(len(me.loops))
        for e in elements:
            v = e if a.domain == "POINT" else me.loops[e].vertex_index
            i = matched[v]
            if i is None:
                continue
            c = a.data[e].color  # linear floats for both byte and float colour attributes
            want = exp["colors"][3 * i:3 * i + 3]
            color_err = max(color_err, max(abs(c[k] - want[k]) for k in range(3)))
        out["colorError"] = color_err
    return out


results = []
for f in job["files"]:
    try:
        results.append(report(f["format"], f["path"]))
    except Exception as e:  # reported, not raised: the test says which format failed and why
        results.append({"format": f["format"], "error": repr(e)})
json.dump({"blender": list(bpy.app.version), "plyNormals": "ply_import" in dir(bpy.ops.wm), "results": results}, open(result_path, "w"), indent=1)


def report_sequence(path):
    """An animated GLB sequence: its objects, and at each keyed frame which of them shows."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=path)
    scene = bpy.context.scene
    objs = sorted((o for o in scene.objects if o.type == "MESH"), key=lambda o: o.name)
    out = {"objects": [{"name": o.name, "vertices": len(o.data.vertices), "faces": len(o.data.polygons)} for o in objs], "shown": []}
    for o in objs:
        ad = o.animation_data
        if o.parent and not ad:
            ad = o.parent.animation_data  # the importer may key the node's parent
        frames = []
        if ad and ad.action:
            for fc in ad.action.fcurves:
                if fc.data_path == "scale":
                    frames += [kp.co[0] for kp in fc.keyframe_points if kp.co[1] > 0.5]
        key = min(frames) if frames else None
        shown = None
        if key is not None:
            scene.frame_set(int(key), subframe=key - int(key))
            shown = [p.name for p in objs if p.matrix_world.to_scale().length > 1e-6]
        out["shown"].append({"object": o.name, "keyFrame": key, "visible": shown})
    return out


if "sequence" in job:
    seq = job["sequence"]
    try:
        data = json.load(open(result_path))
        data["sequence"] = report_sequence(seq)
    except Exception as e:
        data = json.load(open(result_path))
        data["sequence"] = {"error": repr(e)}
    json.dump(data, open(result_path, "w"), indent=1)
