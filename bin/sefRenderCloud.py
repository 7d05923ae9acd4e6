# Render a superellipsoid cloud written by foamToVTK as true shapes.
#   xvfb-run -a -s "-screen 0 1280x1024x24" pvbatch sefRenderCloud.py \
#       <cloud.vtp> <eps1> <eps2> <out.png> [walls.vtp|walls.vtk]
# Each particle is a unit superellipsoid (eps1, eps2) mapped by its
# shapeTensor = R diag(a, b, c) (ParaView Tensor Glyph, columns used as they
# are, no eigen-decomposition) and coloured by its speed |U|.
import sys
from paraview.simple import *  # noqa: F401,F403 (ParaView's scripting API)

cloudFile, eps1, eps2, outFile = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
wallsFile = sys.argv[5] if len(sys.argv) > 5 else None

# Unit superellipsoid from the parametric form (paper 001 eq. 3, Barr 1981)
unit = ProgrammableSource(OutputDataSetType='vtkPolyData')
unit.Script = f"""
import numpy as np
from vtkmodules.vtkCommonCore import vtkPoints
from vtkmodules.vtkCommonDataModel import vtkCellArray
e1, e2 = {eps1}, {eps2}
nEta, nW = 24, 48
def sp(t, p):
    return np.sign(t) * np.abs(t) ** p
pts = vtkPoints()
for i in range(nEta + 1):
    eta = -np.pi / 2 + np.pi * i / nEta
    for j in range(nW):
        w = -np.pi + 2 * np.pi * j / nW
        ce = sp(np.cos(eta), e1)
        pts.InsertNextPoint(ce * sp(np.cos(w), e2), ce * sp(np.sin(w), e2), sp(np.sin(eta), e1))
polys = vtkCellArray()
for i in range(nEta):
    for j in range(nW):
        a, b = i * nW + j, i * nW + (j + 1) % nW
        polys.InsertNextCell(4)
        for k in (a, b, b + nW, a + nW):
            polys.InsertCellPoint(k)
out = self.GetPolyDataOutput()
out.SetPoints(pts)
out.SetPolys(polys)
"""

cloud = XMLPolyDataReader(FileName=[cloudFile])
speed = Calculator(Input=cloud, ResultArrayName='speed', Function='mag(U)')
glyphs = TensorGlyph(Input=speed, GlyphType=unit)
glyphs.Tensors = ['POINTS', 'shapeTensor']
glyphs.ExtractEigenvalues = 0
glyphs.ScaleFactor = 1.0
glyphs.ClampScaling = 0
glyphs.Scalars = ['POINTS', 'speed']
glyphs.ColorGlyphs = 1

view = CreateView('RenderView')
view.ViewSize = [600, 900]
view.Background = [1, 1, 1]
view.OrientationAxesVisibility = 0
try:
    view.UseColorPaletteForBackground = 0
except AttributeError:
    pass

display = Show(glyphs, view)
ColorBy(display, ('POINTS', 'speed'))
lut = GetColorTransferFunction('speed')
lut.ApplyPreset('Viridis (matplotlib)', True)
display.Specular = 0.3

if wallsFile:
    walls = OpenDataFile(wallsFile)
    wallDisplay = Show(walls, view)
    wallDisplay.Representation = 'Wireframe'
    wallDisplay.Opacity = 0.15
    ColorBy(wallDisplay, None)
    wallDisplay.AmbientColor = [0.3, 0.3, 0.3]
    wallDisplay.DiffuseColor = [0.3, 0.3, 0.3]

view.ResetCamera()
camera = view.GetActiveCamera()
camera.Elevation(15)
view.ResetCamera()
Render(view)
SaveScreenshot(outFile, view, ImageResolution=[600, 900], CompressionLevel='9')
print('wrote', outFile)
