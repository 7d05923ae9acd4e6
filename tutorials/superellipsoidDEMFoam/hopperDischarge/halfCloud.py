# The back half of a foamToVTK cloud (the particles whose centre has y >= 0),
# for the pictures of the silo: viewed from the front (-y), the render
# shows the silo cut along its axis.
#   pvbatch halfCloud.py <cloud.vtp> <half.vtp>
import sys
from paraview.simple import ProgrammableFilter, SaveData, XMLPolyDataReader

cloud = XMLPolyDataReader(FileName=[sys.argv[1]])
half = ProgrammableFilter(Input=cloud, OutputDataSetType='vtkPolyData')
half.Script = """
import numpy as np
from vtkmodules.numpy_interface import dataset_adapter as dsa
from vtkmodules.vtkCommonCore import vtkPoints
inp = dsa.WrapDataObject(self.GetPolyDataInput())
keep = np.where(np.asarray(inp.Points)[:, 1] >= 0)[0]
out = dsa.WrapDataObject(self.GetPolyDataOutput())
out.Points = np.asarray(inp.Points)[keep]
for name in inp.PointData.keys():
    out.PointData.append(np.asarray(inp.PointData[name])[keep], name)
"""
SaveData(sys.argv[2], proxy=half)
print('wrote', sys.argv[2])
