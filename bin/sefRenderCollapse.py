# Render frames of a collapsing heap (tutorials/superellipsoidParcelFoam/
# collapseInWater): a fixed front view (from -y, z up, orthographic) of the
# particles as their true shapes, with optional overlays.
#   xvfb-run -a -s "-screen 0 1280x1024x24" pvbatch sefRenderCollapse.py frames.json
# frames.json: a list of frames, each
#   {"cloud": <cloud.vtp>, "eps1": e1, "eps2": e2, "out": <png>,
#    "title": "...", "box": [xmin, xmax, zmin, zmax] or null (drawn as a red
#    outline: the frictionless heap's bounding box),
#    "slice": <internal.vtu> or null (the fluid speed on the plane y = 0),
#    "window": [xmin, xmax, zmin, zmax] (the part of the x-z plane shown)}
import builtins
import json
import os
import sys
from paraview.simple import *  # noqa: F401,F403 (ParaView's scripting API)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sefParaview import superellipsoidGlyphs, whiteView  # noqa: E402

frames = json.load(open(sys.argv[1]))
width, height = 1280, 720
for frame in frames:
    view = whiteView(width, height)
    view.CameraParallelProjection = 1
    cloud = XMLPolyDataReader(FileName=[frame["cloud"]])
    glyphs = superellipsoidGlyphs(cloud, frame["eps1"], frame["eps2"])
    display = Show(glyphs, view)
    ColorBy(display, None)
    display.DiffuseColor = [0.85, 0.55, 0.2]
    display.AmbientColor = [0.85, 0.55, 0.2]
    display.Specular = 0.3
    if frame.get("slice"):
        fluid = XMLUnstructuredGridReader(FileName=[frame["slice"]])
        plane = Slice(Input=fluid)
        plane.SliceType = 'Plane'
        plane.SliceType.Origin = [0, 0.04, 0]     # just behind the heap (seen from -y)
        plane.SliceType.Normal = [0, 1, 0]
        speed = Calculator(Input=plane, ResultArrayName='fluidSpeed', Function='mag(U)')
        sliceDisplay = Show(speed, view)
        ColorBy(sliceDisplay, ('POINTS', 'fluidSpeed'))
        lut = GetColorTransferFunction('fluidSpeed')
        lut.ApplyPreset('Blues', True)
        sliceDisplay.SetScalarBarVisibility(view, True)
        bar = GetScalarBar(lut, view)
        bar.Title = 'fluid |U| [m/s]'
        bar.ComponentTitle = ''
        bar.TitleColor = bar.LabelColor = [0.1, 0.1, 0.1]
    if frame.get("box"):
        x0, x1, z0, z1 = frame["box"]
        box = Box(XLength=x1 - x0, YLength=1e-4, ZLength=z1 - z0, Center=[(x0 + x1) / 2, -0.19, (z0 + z1) / 2])
        boxDisplay = Show(box, view)
        boxDisplay.Representation = 'Outline'
        boxDisplay.AmbientColor = boxDisplay.DiffuseColor = [0.8, 0.0, 0.0]
        boxDisplay.LineWidth = 2.0
    floor = Line(Point1=[-0.2, -0.19, 0], Point2=[0.2, -0.19, 0])
    floorDisplay = Show(floor, view)
    floorDisplay.AmbientColor = floorDisplay.DiffuseColor = [0.2, 0.2, 0.2]
    floorDisplay.LineWidth = 2.0
    if frame.get("title"):
        text = Text(Text=frame["title"])
        textDisplay = Show(text, view)
        textDisplay.Color = [0.1, 0.1, 0.1]
        textDisplay.FontSize = 20
        textDisplay.WindowLocation = 'Upper Left Corner'
    x0, x1, z0, z1 = frame["window"]
    Render(view)   # the first Render resets the camera: place ours after it
    camera = view.GetActiveCamera()
    centre = [(x0 + x1) / 2, 0, (z0 + z1) / 2]
    camera.SetFocalPoint(*centre)
    camera.SetPosition(centre[0], -1.0, centre[2])
    camera.SetViewUp(0, 0, 1)
    # (paraview.simple shadows the builtin max)
    view.CameraParallelScale = builtins.max((z1 - z0) / 2, (x1 - x0) / 2 * height / width)
    Render(view)
    SaveScreenshot(frame["out"], view, ImageResolution=[width, height], CompressionLevel='9')
    Delete(view)
    for source in list(GetSources().values()):
        Delete(source)
    print('wrote', frame["out"])
