// Images, pixel formats and orientations are BlazeImaging's; `import BlazeSegmentation` brings them along.
@_exported import BlazeImaging
