// A job's results are the pipelines' types (Face, FaceLandmarks, AnalyzedImage), their reports (DetectionReport,
// ReportJSON, ...) and the decoder's (ScaledImage, ImageDecodingOptions, ImageIOError): `import BlazeJobs` brings
// them along.
@_exported import BlazeFaceAnalysis
@_exported import BlazeFaceMesh
@_exported import BlazeImageIO
@_exported import BlazeReports
