# Render a superellipsoid cloud written by foamToVTK as true shapes.
#   xvfb-run -a -s "-screen 0 1280x1024x24" pvbatch sefRenderCloud.py \
#       <cloud.vtp> <eps1> <eps2> <out.png> [walls.vtp|walls.vtk]
# Each particle is a unit superellipsoid (eps1, eps2) mapped by its
# glyphTensor = R diag(a, b, c) (ParaView Tensor Glyph, columns used as they
# are, no eigen-decomposition) and coloured by its speed |U|.
import os
import sys
from paraview.simple import *  # noqa: F401,F403 (ParaView's scripting API)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sefParaview import superellipsoidGlyphs, whiteView  # noqa: E402

cloudFile, eps1, eps2, outFile = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
wallsFile = sys.argv[5] if len(sys.argv) > 5 else None

cloud = XMLPolyDataReader(FileName=[cloudFile])
glyphs = superellipsoidGlyphs(cloud, eps1, eps2)
view = whiteView(1280, 960)

display = Show(glyphs, view)
ColorBy(display, ('POINTS', 'speed'))
lut = GetColorTransferFunction('speed')
lut.ApplyPreset('Viridis (matplotlib)', True)
display.Specular = 0.3
display.SetScalarBarVisibility(view, True)
bar = GetScalarBar(lut, view)
bar.Title = '|U| [m/s]'
bar.ComponentTitle = ''
bar.TitleColor = bar.LabelColor = [0.1, 0.1, 0.1]

if wallsFile:
    walls = OpenDataFile(wallsFile)
    wallDisplay = Show(walls, view)
    wallDisplay.Representation = 'Wireframe'
    wallDisplay.Opacity = 0.15
    wallDisplay.ColorArrayName = ['POINTS', '']
    wallDisplay.AmbientColor = [0.3, 0.3, 0.3]
    wallDisplay.DiffuseColor = [0.3, 0.3, 0.3]

# Side view (z up), framed on the particles: the bed, not the whole vessel
glyphs.UpdatePipeline()
b = glyphs.GetDataInformation().GetBounds()
centre = [(b[0] + b[1]) / 2, (b[2] + b[3]) / 2, (b[4] + b[5]) / 2]
Render(view)   # the first Render resets the camera: do it before placing ours
camera = view.GetActiveCamera()
extent = sorted([b[1] - b[0], b[3] - b[2], b[5] - b[4]])[-1]  # (paraview.simple shadows max)
direction = [0.29, -0.96, 0.24]   # from the front, a little from above and the side
distance = 3.0 * extent           # frames the particles at the default 30 deg view angle
camera.SetFocalPoint(*centre)
camera.SetPosition(*[centre[k] + distance * direction[k] for k in range(3)])
camera.SetViewUp(0, 0, 1)
view.CenterOfRotation = centre
Render(view)
SaveScreenshot(outFile, view, ImageResolution=[1280, 960], CompressionLevel='9')
print('wrote', outFile)
