// `import BlazeFaceMesh` brings the detector and the imaging types (ImageView, Point, RotatedRect) too,
// and MediaPipe's region maths (NormalizedRegion, RegionRecipe, RegionAssociation) the mesh runs on.
@_exported import BlazeFace
@_exported import BlazeRegions
