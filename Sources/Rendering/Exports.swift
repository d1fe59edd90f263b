// Pictures of plans, tracks and scores (SVG, and an HTML replay page) on top of Evaluation.
@_exported import Evaluation
