// Images, pixel formats, orientations and geometry are BlazeImaging's; `import BlazeFace` brings them along.
@_exported import BlazeImaging
// The options' model limits (`FaceDetector.Options.modelLimits`) come along too, without `import BlazeModels`.
@_exported import struct BlazeModels.ModelLimits
