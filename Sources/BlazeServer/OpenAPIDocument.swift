#if Server
/// The OpenAPI 3.1 description of the server, served at `GET /openapi.yaml`. `OpenAPITests` checks it against
/// the server: its paths, methods, query parameters and error codes are the routes' own, and its schemas have
/// the keys of real answers.
enum OpenAPIDocument {
    static let yaml = #"""
        openapi: 3.1.0
        info:
          title: blazeface serve
          version: "1.0.0"
          description: >-
            Face detection, MediaPipe's 478-point face mesh, face analysis (head pose, open eyes, smile, capture
            quality) and person segmentation over HTTP. Send the picture's bytes (JPEG or PNG, recognised from the
            bytes) as the body, or as the `image` part of multipart/form-data. Coordinates are pixels of the upright
            picture (EXIF orientation applied), origin top-left. Every error is {"error": {"code", "message"}}.
          license:
            name: Apache-2.0
        servers:
          - url: http://127.0.0.1:8080
        security:
          - {}
          - apiKey: []
        paths:
          /v1/detect:
            post:
              operationId: detect
              summary: Faces with boxes, scores, six keypoints and roll.
              parameters:
                - $ref: "#/components/parameters/minScore"
                - $ref: "#/components/parameters/maxFaces"
                - $ref: "#/components/parameters/detector"
                - $ref: "#/components/parameters/tryRotations"
              requestBody:
                $ref: "#/components/requestBodies/Picture"
              responses:
                "200":
                  description: The faces found.
                  content:
                    application/json:
                      schema:
                        $ref: "#/components/schemas/DetectionReport"
                "400": {$ref: "#/components/responses/BadRequest"}
                "401": {$ref: "#/components/responses/Unauthorized"}
                "408": {$ref: "#/components/responses/RequestTimeout"}
                "413": {$ref: "#/components/responses/PayloadTooLarge"}
                "415": {$ref: "#/components/responses/UnsupportedMediaType"}
                "422": {$ref: "#/components/responses/Unprocessable"}
                "503": {$ref: "#/components/responses/Overloaded"}
                "504": {$ref: "#/components/responses/Timeout"}
          /v1/landmarks:
            post:
              operationId: landmarks
              summary: MediaPipe's 478-point face mesh of every face.
              parameters:
                - $ref: "#/components/parameters/minScore"
                - $ref: "#/components/parameters/maxFaces"
                - $ref: "#/components/parameters/detector"
                - $ref: "#/components/parameters/tryRotations"
              requestBody:
                $ref: "#/components/requestBodies/Picture"
              responses:
                "200":
                  description: The faces' meshes.
                  content:
                    application/json:
                      schema:
                        $ref: "#/components/schemas/LandmarksReport"
                "400": {$ref: "#/components/responses/BadRequest"}
                "401": {$ref: "#/components/responses/Unauthorized"}
                "408": {$ref: "#/components/responses/RequestTimeout"}
                "413": {$ref: "#/components/responses/PayloadTooLarge"}
                "415": {$ref: "#/components/responses/UnsupportedMediaType"}
                "422": {$ref: "#/components/responses/Unprocessable"}
                "503": {$ref: "#/components/responses/Overloaded"}
                "504": {$ref: "#/components/responses/Timeout"}
          /v1/analyze:
            post:
              operationId: analyze
              summary: Head pose, open eyes, smile, capture quality and hints of every face.
              parameters:
                - $ref: "#/components/parameters/minScore"
                - $ref: "#/components/parameters/maxFaces"
                - $ref: "#/components/parameters/detector"
                - $ref: "#/components/parameters/tryRotations"
                - name: framing
                  in: query
                  description: The target the hints judge against.
                  schema: {type: string, enum: [passport, selfie], default: selfie}
              requestBody:
                $ref: "#/components/requestBodies/Picture"
              responses:
                "200":
                  description: The analysis.
                  content:
                    application/json:
                      schema:
                        $ref: "#/components/schemas/AnalysisReport"
                "400": {$ref: "#/components/responses/BadRequest"}
                "401": {$ref: "#/components/responses/Unauthorized"}
                "408": {$ref: "#/components/responses/RequestTimeout"}
                "413": {$ref: "#/components/responses/PayloadTooLarge"}
                "415": {$ref: "#/components/responses/UnsupportedMediaType"}
                "422": {$ref: "#/components/responses/Unprocessable"}
                "503": {$ref: "#/components/responses/Overloaded"}
                "504": {$ref: "#/components/responses/Timeout"}
          /v1/segment:
            post:
              operationId: segment
              summary: The person mask, the picture with a new background, or the segmentation report.
              description: >-
                Answers an 8-bit gray PNG mask of the picture's upright size; with `background`, the picture with
                that background behind the person (RGB PNG); with `Accept: application/json`, the report.
              parameters:
                - name: model
                  in: query
                  description: general (256x256), landscape (256x144) or automatic (landscape for pictures wider than 4:3).
                  schema: {type: string, enum: [general, landscape, automatic], default: general}
                - name: background
                  in: query
                  description: white, black, "#RRGGBB", blur (2 % of the shorter side) or blur:N (N pixels, 0...1000).
                  schema: {type: string, pattern: "^(?i:white|black|blur|blur:[0-9]{1,4}|#[0-9a-f]{6})$"}
              requestBody:
                $ref: "#/components/requestBodies/Picture"
              responses:
                "200":
                  description: The mask or the new picture (PNG), or the report (JSON).
                  content:
                    image/png:
                      schema: {type: string, contentMediaType: image/png}
                    application/json:
                      schema:
                        $ref: "#/components/schemas/SegmentationReport"
                "400": {$ref: "#/components/responses/BadRequest"}
                "401": {$ref: "#/components/responses/Unauthorized"}
                "408": {$ref: "#/components/responses/RequestTimeout"}
                "413": {$ref: "#/components/responses/PayloadTooLarge"}
                "415": {$ref: "#/components/responses/UnsupportedMediaType"}
                "422": {$ref: "#/components/responses/Unprocessable"}
                "503": {$ref: "#/components/responses/Overloaded"}
                "504": {$ref: "#/components/responses/Timeout"}
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
              description: The face detector (default the server's, full-range unless set).
              schema: {type: string, enum: [full-range, short-range, full-range-sparse, back]}
            tryRotations:
              name: tryRotations
              in: query
              description: Also look in the picture turned by 90, 180 and 270 degrees; each face then reports uprightRotation.
              schema: {type: boolean, default: false}
          requestBodies:
            Picture:
              required: true
              description: A JPEG or PNG file's bytes, or multipart/form-data with the file in the part named image.
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
                             image_too_large, internal, overloaded, shutting_down, timeout]
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
            DetectionReport:
              type: object
              required: [width, height, faces]
              properties:
                width: {type: integer}
                height: {type: integer}
                faces:
                  type: array
                  items:
                    type: object
                    required: [box, score, keypoints, roll]
                    properties:
                      box: {$ref: "#/components/schemas/Box"}
                      score: {type: number}
                      keypoints:
                        type: array
                        items: {$ref: "#/components/schemas/Keypoint"}
                      roll: {type: number}
                      uprightRotation: {type: integer, enum: [0, 90, 180, 270]}
            LandmarksReport:
              type: object
              required: [width, height, faces]
              properties:
                width: {type: integer}
                height: {type: integer}
                faces:
                  type: array
                  items:
                    type: object
                    required: [box, score, presence, landmarks]
                    properties:
                      box: {$ref: "#/components/schemas/Box"}
                      score: {type: [number, "null"]}
                      presence: {type: number}
                      landmarks:
                        type: array
                        items:
                          type: array
                          minItems: 3
                          maxItems: 3
                          items: {type: number}
                      uprightRotation: {type: integer, enum: [0, 90, 180, 270]}
            AnalysisReport:
              type: object
              required: [width, height, hints, faces]
              properties:
                width: {type: integer}
                height: {type: integer}
                hints:
                  type: array
                  items: {type: string}
                faces:
                  type: array
                  items:
                    type: object
                    required: [box, score, pose, leftEyeOpen, rightEyeOpen, smiling, quality, hints]
                    properties:
                      box: {$ref: "#/components/schemas/Box"}
                      score: {type: [number, "null"]}
                      pose:
                        type: object
                        required: [pitch, yaw, roll]
                        properties:
                          pitch: {type: number}
                          yaw: {type: number}
                          roll: {type: number}
                      leftEyeOpen: {type: number}
                      rightEyeOpen: {type: number}
                      smiling: {type: number}
                      quality: {type: number}
                      hints:
                        type: array
                        items: {type: string}
                      uprightRotation: {type: integer, enum: [0, 90, 180, 270]}
            SegmentationReport:
              type: object
              required: [width, height, model, personShare]
              properties:
                width: {type: integer}
                height: {type: integer}
                model: {type: string, enum: [general, landscape]}
                personShare: {type: number, minimum: 0, maximum: 1}
        """#
}
#endif
