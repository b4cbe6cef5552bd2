#if Server
import BlazeImageIO
import BlazeJobs

/// The OpenAPI 3.1 description of the server, served at `GET /openapi.yaml`. `OpenAPITests` checks it against
/// the server: its paths, methods, query parameters and error codes are the routes' own, and its schemas have
/// the keys of real answers.
enum OpenAPIDocument {
    static let yaml: String = #"""
        openapi: 3.1.0
        info:
          title: blazeface serve
          version: "1.0.0"
          description: >-
            Face detection, MediaPipe's 478-point face mesh, face analysis (head pose, open eyes, smile, capture
            quality) and person segmentation over HTTP. Send the picture's bytes (\#(ImageFileFormat.listedNames),
            recognised from the bytes) as the body, or as the `image` part of multipart/form-data. Coordinates are pixels of the upright
            picture (EXIF orientation applied), origin top-left. Every error is {"error": {"code", "message"}}.
          license:
            name: Apache-2.0
        servers:
          - url: http://127.0.0.1:8080
        security:
          - {}
          - apiKey: []
        paths:
        \#(analysisPath(.detect, "Faces with boxes, scores, six keypoints and roll.", schema: "DetectionReport",
                        parameters: ["- $ref: \"#/components/parameters/fullDecode\""]))
        \#(analysisPath(.landmarks, "MediaPipe's 478-point face mesh of every face.", schema: "LandmarksReport"))
        \#(analysisPath(.analyze, "Head pose, open eyes, smile, capture quality and hints of every face.",
                        schema: "AnalysisReport", parameters: [
                            "- name: framing", "  in: query", "  description: The target the hints judge against.",
                            "  schema: {type: string, enum: [passport, selfie], default: selfie}",
                        ]))
        \#(analysisPath(.segment, "The person mask, the picture with a new background, or the segmentation report.",
                        schema: "SegmentationReport", faceParameters: false, parameters: [
                            "- name: model", "  in: query",
                            "  description: general (256x256), landscape (256x144) or automatic (landscape for pictures wider than 4:3).",
                            "  schema: {type: string, enum: [general, landscape, automatic], default: general}",
                            "- name: background", "  in: query",
                            ##"  description: white, black, "#RRGGBB", blur (2 % of the shorter side) or blur:N (N pixels, 0...1000)."##,
                            ##"  schema: {type: string, pattern: "^(?i:white|black|blur|blur:[0-9]{1,4}|#[0-9a-f]{6})$"}"##,
                        ], png: true))
          /healthz:
            get:
              operationId: healthz
              summary: The process is alive.
              security: [{}]
              responses:
                "200":
                  description: Alive.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [status]
                        properties:
                          status: {type: string, const: ok}
          /readyz:
            get:
              operationId: readyz
              summary: The models are loaded and requests are taken; the queue's state.
              security: [{}]
              responses:
                "200":
                  description: Ready.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [status, waiting, running]
                        properties:
                          status: {type: string, const: ready}
                          waiting: {type: integer, minimum: 0}
                          running: {type: integer, minimum: 0}
          /metrics:
            get:
              operationId: metrics
              summary: Prometheus metrics (text exposition format 0.0.4).
              responses:
                "200":
                  description: The metrics.
                  content:
                    text/plain:
                      schema: {type: string}
                "401": {$ref: "#/components/responses/Unauthorized"}
          /openapi.yaml:
            get:
              operationId: openapi
              summary: This document.
              security: [{}]
              responses:
                "200":
                  description: The OpenAPI document.
                  content:
                    application/yaml:
                      schema: {type: string}
        components:
          securitySchemes:
            apiKey:
              type: http
              scheme: bearer
              description: Required on /v1/ and /metrics when the server runs with --api-key-file.
          parameters:
            minScore:
              name: minScore
              in: query
              description: Minimum detection score (default the model's for detect, 0.5 for the mesh).
              schema: {type: number, minimum: 0, maximum: 1}
            maxFaces:
              name: maxFaces
              in: query
              description: At most this many faces, highest scores first.
              schema: {type: integer, minimum: 1, maximum: 1000}
            detector:
              name: detector
              in: query
              description: The face detector (default the server's, photo unless set). photo runs full-range, short-range and full-range-sparse together.
              schema: {type: string, enum: [\#(FaceJobOptions.DetectorSource.names.joined(separator: ", "))]}
            tryRotations:
              name: tryRotations
              in: query
              description: Also look in the picture turned by 90, 180 and 270 degrees; each face then reports uprightRotation.
              schema: {type: boolean, default: false}
            fullDecode:
              name: fullDecode
              in: query
              description: Decode a large JPEG in full. By default one longer than 9 times the detector's input is decoded smaller (1/2, 1/4 or 1/8), as blazeface detect does; the faces are in the full picture's pixels either way.
              schema: {type: boolean, default: false}
          requestBodies:
            Picture:
              required: true
              description: An image file's bytes (\#(ImageFileFormat.listedNames)), or multipart/form-data with the file in the part named image.
              content:
                image/*:
                  schema: {type: string, contentMediaType: application/octet-stream}
                application/octet-stream:
                  schema: {type: string, contentMediaType: application/octet-stream}
                multipart/form-data:
                  schema:
                    type: object
                    required: [image]
                    properties:
                      image: {type: string, contentMediaType: application/octet-stream}
          responses:
            BadRequest:
              description: A query parameter is unknown, repeated or out of range, or the multipart body has no image part.
              content: {application/json: {schema: {$ref: "#/components/schemas/Error"}}}
            Unauthorized:
              description: The API key is missing or wrong.
              content: {application/json: {schema: {$ref: "#/components/schemas/Error"}}}
            RequestTimeout:
              description: The body did not arrive within the request timeout; the connection is closed.
              content: {application/json: {schema: {$ref: "#/components/schemas/Error"}}}
            PayloadTooLarge:
              description: The body is larger than --max-body-bytes; the connection is closed.
              content: {application/json: {schema: {$ref: "#/components/schemas/Error"}}}
            UnsupportedMediaType:
              description: The body is not a picture of a format the server reads.
              content: {application/json: {schema: {$ref: "#/components/schemas/Error"}}}
            Unprocessable:
              description: The picture is damaged, empty, or has more pixels than --max-pixels (checked before decoding).
              content: {application/json: {schema: {$ref: "#/components/schemas/Error"}}}
            Overloaded:
              description: Every worker is busy and the queue is full, or the server is shutting down; retry after the header's seconds.
              headers:
                Retry-After:
                  schema: {type: integer}
              content: {application/json: {schema: {$ref: "#/components/schemas/Error"}}}
            Timeout:
              description: The request took longer than --request-timeout.
              content: {application/json: {schema: {$ref: "#/components/schemas/Error"}}}
          schemas:
            Error:
              type: object
              required: [error]
              properties:
                error:
                  type: object
                  required: [code, message]
                  properties:
                    code:
                      type: string
                      enum: [bad_request, unauthorized, not_found, method_not_allowed, request_timeout,
                             payload_too_large, unsupported_media_type, undecodable_image, empty_image,
                             image_too_large, unprocessable_image, internal, overloaded, shutting_down, timeout]
                    message: {type: string}
            Box:
              type: object
              required: [x, y, width, height]
              properties:
                x: {type: number}
                y: {type: number}
                width: {type: number}
                height: {type: number}
            Keypoint:
              type: object
              required: [type, x, y]
              properties:
                type: {type: string, enum: [rightEye, leftEye, noseTip, mouthCenter, rightEarTragion, leftEarTragion]}
                x: {type: number}
                y: {type: number}
        \#(facesReport("DetectionReport", faceRequired: ["score", "keypoints", "roll"], face: [
            "score: {type: number}",
            "keypoints:", "  type: array", "  items: {$ref: \"#/components/schemas/Keypoint\"}",
            "roll: {type: number}",
        ]))
        \#(facesReport("LandmarksReport", faceRequired: ["score", "presence", "landmarks"], face: [
            "score: {type: [number, \"null\"]}",
            "presence: {type: number}",
            "landmarks:", "  type: array", "  items:", "    type: array", "    minItems: 3", "    maxItems: 3",
            "    items: {type: number}",
        ]))
        \#(facesReport("AnalysisReport",
                       pictureRequired: ["hints"], picture: ["hints:", "  type: array", "  items: {type: string}"],
                       faceRequired: ["score", "pose", "leftEyeOpen", "rightEyeOpen", "smiling", "quality", "hints"],
                       face: [
            "score: {type: [number, \"null\"]}",
            "pose:", "  type: object", "  required: [pitch, yaw, roll]", "  properties:",
            "    pitch: {type: number}", "    yaw: {type: number}", "    roll: {type: number}",
            "leftEyeOpen: {type: number}", "rightEyeOpen: {type: number}", "smiling: {type: number}",
            "quality: {type: number}",
            "hints:", "  type: array", "  items: {type: string}",
        ]))
            SegmentationReport:
              type: object
              required: [width, height, model, personShare]
              properties:
                width: {type: integer}
                height: {type: integer}
                model: {type: string, enum: [general, landscape]}
                personShare: {type: number, minimum: 0, maximum: 1}
        """#

    /// The lines of one analysis endpoint under `paths:`: its face parameters (minScore, maxFaces, detector,
    /// tryRotations) unless told otherwise, then `parameters` (YAML list items), the picture body, the report
    /// (and PNG for segment) and every error it answers.
    private static func analysisPath(_ endpoint: Endpoint, _ summary: String, schema: String,
                                     faceParameters: Bool = true, parameters: [String] = [], png: Bool = false) -> String {
        let faces = faceParameters ? ["minScore", "maxFaces", "detector", "tryRotations"]
            .map { "- $ref: \"#/components/parameters/\($0)\"" } : []
        let errors = [("400", "BadRequest"), ("401", "Unauthorized"), ("408", "RequestTimeout"), ("413", "PayloadTooLarge"),
                      ("415", "UnsupportedMediaType"), ("422", "Unprocessable"), ("503", "Overloaded"), ("504", "Timeout")]
            .map { "\"\($0.0)\": {$ref: \"#/components/responses/\($0.1)\"}" }
        let image = png ? ["image/png:", "  schema: {type: string, contentMediaType: image/png}"] : []
        let lines = ["  \(endpoint.path):", "    post:", "      operationId: \(endpoint.rawValue)", "      summary: \(summary)",
                     "      parameters:"] + indented(faces + parameters, 8)
            + ["      requestBody:", "        $ref: \"#/components/requestBodies/Picture\"", "      responses:",
               "        \"200\":", "          description: The answer.", "          content:"]
            + indented(image + ["application/json:", "  schema:", "    $ref: \"#/components/schemas/\(schema)\""], 12)
            + indented(errors, 8)
        return lines.joined(separator: "\n")
    }

    /// The lines of one faces report under `schemas:`: the upright picture's `width` and `height`, then
    /// `picture` (YAML lines of further properties, those in `pictureRequired` required), then `faces`, each face
    /// with its `box`, the properties `face` (those in `faceRequired` required) and the optional `uprightRotation`
    /// (only with tryRotations).
    private static func facesReport(_ name: String, pictureRequired: [String] = [], picture: [String] = [],
                                    faceRequired: [String], face: [String]) -> String {
        func required(_ names: [String]) -> String { "required: [\(names.joined(separator: ", "))]" }
        let faces = ["faces:", "  type: array", "  items:", "    type: object",
                     "    " + required(["box"] + faceRequired), "    properties:"]
            + indented(["box: {$ref: \"#/components/schemas/Box\"}"] + face
                       + ["uprightRotation: {type: integer, enum: [0, 90, 180, 270]}"], 6)
        let pictureKeys = ["width", "height"] + pictureRequired + ["faces"]
        let lines = indented(["\(name):", "  type: object", "  " + required(pictureKeys), "  properties:"], 4)
            + indented(["width: {type: integer}", "height: {type: integer}"] + picture + faces, 8)
        return lines.joined(separator: "\n")
    }

    /// `lines`, each after `spaces` spaces.
    private static func indented(_ lines: [String], _ spaces: Int) -> [String] {
        lines.map { String(repeating: " ", count: spaces) + $0 }
    }
}
#endif
