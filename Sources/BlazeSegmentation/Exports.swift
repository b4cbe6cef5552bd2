// Images, pixel formats and orientations are BlazeImaging's; `import BlazeSegmentation` brings them along.
@_exported import BlazeImaging
// The options' model limits (`PersonSegmenter.Options.modelLimits`) come along too, without `import BlazeModels`.
@_exported import struct BlazeModels.ModelLimits
