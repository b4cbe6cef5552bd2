// This build's dispatch table. Its type, `MicrokernelTable`, and the argument structs its entries take live in
// `BlazeKernelParameters`, which both builds import, so `BlazeKernels.Microkernels.table` and
// `BlazeKernelsFMA.Microkernels.table` are values of one type and `KernelInstructionSet.microkernels` can hand
// out either.

import BlazeKernelParameters

extension Microkernels {
    /// This build's entry points, by operator family; each field is the function of the same name (see its
    /// documentation), except the same-shape `add` and `multiply`: `sameShape` of the row operation.
    package static let table = MicrokernelTable(
        convolution: ConvolutionKernelTable(
            depthwise: depthwise,
            depthwiseGeneral: depthwiseGeneral,
            convolution: convolution,
            convolutionDirect: convolutionDirect,
            pointwise: pointwise,
            pointwiseNarrow: pointwiseNarrow,
            transposeConvUpsample: transposeConvUpsample
        ),
        elementwise: ElementwiseKernelTable(
            clamp: clampBuffer,
            logistic: logistic,
            silu: silu,
            gelu: gelu,
            geluTanh: geluTanh,
            hardSwish: hardSwish,
            add: RowAddition.sameShape,
            addBroadcast: addBroadcast,
            multiply: RowMultiplication.sameShape,
            multiplyBroadcast: multiplyBroadcast,
            addPReLU: addPReLU,
            prelu: prelu,
            residualAdd: residualAdd
        ),
        window: WindowKernelTable(
            maxPool: maxPool,
            averagePool: averagePool,
            mean: mean,
            pad: pad,
            resizeBilinear: resizeBilinear
        ),
        general: GeneralKernelTable(softmax: softmax, matmul: matmul)
    )
}
