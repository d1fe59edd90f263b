import LinearAlgebra

extension TrackEstimate {
    /// The horizontal position covariance as a ``PositionCovariance``, m² (vertical terms zero).
    public var horizontalCovariance: PositionCovariance {
        PositionCovariance(xx: covarianceXX, xy: covarianceXY, yy: covarianceYY)
    }

    /// The 1-σ error ellipse of the horizontal position.
    public var ellipse: ErrorEllipse { ErrorEllipse(horizontalOf: horizontalCovariance) }
}
