# Frames of the fluidized bed (pvbatch; called by render.py): the column
# seen from the front (-y, z up, orthographic), the particles as their true
# shapes coloured by speed, in front of the gas fraction alphac on a plane at
# the back of the column (the bubbles: alphac near 1).
#   xvfb-run -a -s "-screen 0 1280x1024x24" pvbatch renderFrames.py frames.json
# frames.json: a list of frames, each
#   {"cloud": <cloud.vtp>, "eps1": e1, "eps2": e2, "out": <png>, "title": "...",
#    "fluid": <internal.vtu> or null, "window": [xmin, xmax, zmin, zmax],
#    "size": [width, height]}
import builtins
import json
import os
import sys
from paraview.simple import *  # noqa: F401,F403 (ParaView's scripting API)
sys.path.insert(0, os.path.join(os.environ["SEF_ROOT"], "bin"))
from sefParaview import superellipsoidGlyphs, whiteView  # noqa: E402



def colourBar(display, lut, view, title, position):
    """The colour bar of lut at position (view fractions), dark text."""
    display.SetScalarBarVisibility(view, True)
    bar = GetScalarBar(lut, view)
    bar.Title = title
    bar.ComponentTitle = ''
    bar.TitleColor = bar.LabelColor = [0.1, 0.1, 0.1]
    bar.WindowLocation = 'Any Location'
    bar.Position = position
    bar.AutomaticLabelFormat = 0
    bar.LabelFormat = bar.RangeLabelFormat = '%.1f'
    bar.ScalarBarLength = 0.3


frames = json.load(open(sys.argv[1]))
glyphShapes = {}
for frame in frames:
    width, height = frame["size"]
    view = whiteView(width, height)
    view.CameraParallelProjection = 1
    cloud = XMLPolyDataReader(FileName=[frame["cloud"]])
    # a coarse glyph (12 x 24 facets): 2000 particles per frame
    glyphs = superellipsoidGlyphs(cloud, frame["eps1"], frame["eps2"], 12, 24)
    display = Show(glyphs, view)
    ColorBy(display, ('POINTS', 'speed'))
    lut = GetColorTransferFunction('speed')
    lut.ApplyPreset('Oranges', True)
    lut.InvertTransferFunction()   # at rest light, fast dark
    lut.RescaleTransferFunction(0.0, 0.5)
    colourBar(display, lut, view, 'particle |U| [m/s]', [0.76, 0.6])
    if frame.get("fluid"):
        fluid = XMLUnstructuredGridReader(FileName=[frame["fluid"]])
        plane = Slice(Input=fluid)
        plane.SliceType = 'Plane'
        plane.SliceType.Origin = [0, frame.get("backY", 0.0089), 0]
        plane.SliceType.Normal = [0, 1, 0]
        sliceDisplay = Show(plane, view)
        sliceDisplay.Ambient = 1.0   # flat: the plane is seen from behind its light
        sliceDisplay.Diffuse = 0.0
        ColorBy(sliceDisplay, ('CELLS', 'alphac'))
        alut = GetColorTransferFunction('alphac')
        alut.ApplyPreset('Blues', True)
        alut.RescaleTransferFunction(0.4, 1.0)
        colourBar(sliceDisplay, alut, view, 'gas fraction', [0.76, 0.12])
    if frame.get("title"):
        text = Text(Text=frame["title"])
        textDisplay = Show(text, view)
        textDisplay.Color = [0.1, 0.1, 0.1]
        textDisplay.FontSize = 13
        textDisplay.WindowLocation = 'Upper Right Corner'
    x0, x1, z0, z1 = frame["window"]
    Render(view)   # the first Render resets the camera: place ours after it
    camera = view.GetActiveCamera()
    # the column left of centre: the colour bars on the right
    centre = [x0 + (x1 - x0) * 0.5 + (x1 - x0) * 0.35, 0, (z0 + z1) / 2]
    camera.SetFocalPoint(*centre)
    camera.SetPosition(centre[0], -1.0, centre[2])
    camera.SetViewUp(0, 0, 1)
    view.CameraParallelScale = builtins.max((z1 - z0) / 2, (x1 - x0) * 1.7 / 2 * height / width)
    Render(view)
    SaveScreenshot(frame["out"], view, ImageResolution=[width, height], CompressionLevel='9')
    Delete(view)
    for source in list(GetSources().values()):
        Delete(source)
    print('wrote', frame["out"])
