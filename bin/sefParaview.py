# Shared pieces of the pvbatch render scripts (sefRenderCloud.py,
# sefRenderCollapse.py): the unit superellipsoid glyph and the glyph filter
# that maps it onto every particle of a foamToVTK cloud.
from paraview.simple import ProgrammableSource, TensorGlyph, Calculator


def unitSuperellipsoid(eps1, eps2, nEta=24, nW=48):
    """Unit superellipsoid from the parametric form ([Superellipsoid-OpenFOAM] eq. 3, Barr 1981)."""
    unit = ProgrammableSource(OutputDataSetType='vtkPolyData')
    unit.Script = f"""
import numpy as np
from vtkmodules.vtkCommonCore import vtkPoints
from vtkmodules.vtkCommonDataModel import vtkCellArray
e1, e2 = {eps1}, {eps2}
nEta, nW = {nEta}, {nW}
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
    return unit


def superellipsoidGlyphs(cloud, eps1, eps2, nEta=24, nW=48):
    """Every particle as its true shape: the unit superellipsoid (nEta x nW
    facets) mapped by its glyphTensor = R diag(a, b, c) (the tensor's columns
    used as they are, no eigen-decomposition), with the point array
    'speed' = |U|."""
    speed = Calculator(Input=cloud, ResultArrayName='speed', Function='mag(U)')
    glyphs = TensorGlyph(Input=speed, GlyphType=unitSuperellipsoid(eps1, eps2, nEta, nW))
    glyphs.Tensors = ['POINTS', 'glyphTensor']
    glyphs.ExtractEigenvalues = 0
    glyphs.Symmetric = 0
    glyphs.LimitScalingByEigenvalues = 0
    glyphs.ScaleFactor = 1.0
    glyphs.Scalars = ['POINTS', 'speed']
    glyphs.ColorGlyphs = 1
    glyphs.Colorby = 'input scalars'
    return glyphs


def whiteView(width, height):
    from paraview.simple import CreateView
    view = CreateView('RenderView')
    view.ViewSize = [width, height]
    view.Background = [1, 1, 1]
    view.OrientationAxesVisibility = 0
    try:
        view.UseColorPaletteForBackground = 0
    except AttributeError:
        pass
    return view
