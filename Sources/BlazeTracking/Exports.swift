@_exported import BlazeFaceAnalysis
@_exported import BlazeFaceMesh
