# Side view of a heap (tutorial 'heap'): every particle as its true shape,
# coloured by its height, the plate's outline in grey.
#   xvfb-run -a -s "-screen 0 1280x1024x24" pvbatch renderHeap.py \
#       <cloud.vtp> <eps1> <eps2> <out.png> <plate.vtp> <title>
import os
import sys
from paraview.simple import *  # noqa: F401,F403 (ParaView's scripting API)
sys.path.insert(0, os.path.join(os.environ.get("SEF_ROOT", "../../.."), "bin"))
from sefParaview import superellipsoidGlyphs, whiteView  # noqa: E402

cloudFile, eps1, eps2, outFile, plateFile, title = sys.argv[1:7]
cloud = XMLPolyDataReader(FileName=[cloudFile])
glyphs = superellipsoidGlyphs(cloud, float(eps1), float(eps2))
height = Calculator(Input=glyphs, ResultArrayName='height', Function='1000*coordsZ')
view = whiteView(1280, 720)
display = Show(height, view)
ColorBy(display, ('POINTS', 'height'))
lut = GetColorTransferFunction('height')
lut.ApplyPreset('Viridis (matplotlib)', True)
display.Specular = 0.3
display.SetScalarBarVisibility(view, True)
bar = GetScalarBar(lut, view)
bar.Title = 'z [mm]'
bar.ComponentTitle = ''
bar.TitleColor = bar.LabelColor = [0.1, 0.1, 0.1]

plate = OpenDataFile(plateFile)
plateDisplay = Show(plate, view)
plateDisplay.ColorArrayName = ['POINTS', '']
plateDisplay.DiffuseColor = plateDisplay.AmbientColor = [0.55, 0.55, 0.55]
plateDisplay.Opacity = 0.6

text = Text(Text=title)
textDisplay = Show(text, view)
textDisplay.Color = [0.1, 0.1, 0.1]
textDisplay.FontSize = 14
textDisplay.WindowLocation = 'Upper Center'

# From the side, 10 degrees above the plate, framed on the plate
plate.UpdatePipeline()
b = plate.GetDataInformation().GetBounds()
R = (b[1] - b[0]) / 2
centre = [0, 0, 0.25 * R]
Render(view)
camera = view.GetActiveCamera()
camera.SetFocalPoint(*centre)
camera.SetPosition(0, -3.2 * R, 0.25 * R + 3.2 * R * 0.176)
camera.SetViewUp(0, 0, 1)
Render(view)
SaveScreenshot(outFile, view, ImageResolution=[1280, 720], CompressionLevel='9')
print('wrote', outFile)
