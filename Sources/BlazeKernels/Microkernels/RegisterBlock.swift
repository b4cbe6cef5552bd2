// Register blocks: a fixed number of values (accumulators, row pointers) that a microkernel keeps in registers,
// one per output pixel or tile row. The kernels are written once, generic over the block type, and
// `forEach` hands every element to a visitor in turn with a constant index: after specialization (the kernels
// are `@inline(__always)` or called with a concrete block type) each visit inlines to straight-line code on
// named stored properties, as the hand-unrolled kernels were; no array, no loop, no call per element.
// Only the blocks' element lists are written out, once per width, here.
//
// A closure body is inlined at the optimizer's discretion: one that is large once its callees are inlined
// (the clamp's lane loop on two vectors, six times) stayed a call per element. A visitor's `visit` is
// `@inline(__always)`, so that is what such bodies use. (Wrapping every closure in a visitor instead lost the
// closures' inlining: calls per element everywhere.)

/// A fixed-width block of values of one type, kept in registers by the microkernels.
protocol RegisterBlock<Element> {
    associatedtype Element
    /// The number of elements.
    static var width: Int { get }
    /// A block whose every element is `value`.
    init(repeating value: Element)
    /// Calls `body(&element, index)` for each element, index `0 ..< width` in order.
    mutating func forEach(_ body: (inout Element, Int) -> Void)
    /// Calls `visitor.visit(&element, index)` for each element, index `0 ..< width` in order.
    mutating func forEach<Visitor: RegisterBlockVisitor<Element>>(_ visitor: Visitor)
}

/// What `RegisterBlock.forEach` does to each element; `visit` should be `@inline(__always)`.
protocol RegisterBlockVisitor<Element> {
    associatedtype Element
    func visit(_ element: inout Element, _ index: Int)
}

extension RegisterBlock {

    /// `transform(element, index)` for every element, in order.
    @inline(__always)
    mutating func update(_ transform: (Element, Int) -> Element) {
        forEach { element, index in element = transform(element, index) }
    }
}

/// 4 values.
struct RegisterBlock4<Element>: RegisterBlock {
    var e0, e1, e2, e3: Element

    static var width: Int { 4 }

    @inline(__always)
    init(repeating value: Element) {
        (e0, e1, e2, e3) = (value, value, value, value)
    }

    @inline(__always)
    mutating func forEach(_ body: (inout Element, Int) -> Void) {
        body(&e0, 0); body(&e1, 1); body(&e2, 2); body(&e3, 3)
    }

    @inline(__always)
    mutating func forEach<Visitor: RegisterBlockVisitor<Element>>(_ v: Visitor) {
        v.visit(&e0, 0); v.visit(&e1, 1); v.visit(&e2, 2); v.visit(&e3, 3)
    }
}

/// 6 values.
struct RegisterBlock6<Element>: RegisterBlock {
    var e0, e1, e2, e3, e4, e5: Element

    static var width: Int { 6 }

    @inline(__always)
    init(repeating value: Element) {
        (e0, e1, e2, e3, e4, e5) = (value, value, value, value, value, value)
    }

    @inline(__always)
    mutating func forEach(_ body: (inout Element, Int) -> Void) {
        body(&e0, 0); body(&e1, 1); body(&e2, 2); body(&e3, 3); body(&e4, 4); body(&e5, 5)
    }

    @inline(__always)
    mutating func forEach<Visitor: RegisterBlockVisitor<Element>>(_ v: Visitor) {
        v.visit(&e0, 0); v.visit(&e1, 1); v.visit(&e2, 2); v.visit(&e3, 3); v.visit(&e4, 4); v.visit(&e5, 5)
    }
}

/// 8 values.
struct RegisterBlock8<Element>: RegisterBlock {
    var e0, e1, e2, e3, e4, e5, e6, e7: Element

    static var width: Int { 8 }

    @inline(__always)
    init(repeating value: Element) {
        (e0, e1, e2, e3, e4, e5, e6, e7) = (value, value, value, value, value, value, value, value)
    }

    @inline(__always)
    mutating func forEach(_ body: (inout Element, Int) -> Void) {
        body(&e0, 0); body(&e1, 1); body(&e2, 2); body(&e3, 3); body(&e4, 4); body(&e5, 5); body(&e6, 6)
        body(&e7, 7)
    }

    @inline(__always)
    mutating func forEach<Visitor: RegisterBlockVisitor<Element>>(_ v: Visitor) {
        v.visit(&e0, 0); v.visit(&e1, 1); v.visit(&e2, 2); v.visit(&e3, 3); v.visit(&e4, 4); v.visit(&e5, 5)
        v.visit(&e6, 6); v.visit(&e7, 7)
    }
}
