/** A point in the analysed image's pixels; z is the mesh's relative depth (same scale as x). */
export type Point3 = [x: number, y: number, z: number];

/** Pixels of the analysed image (the photo upright, its longest side at most ANALYSIS_MAX_SIDE). */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Named mesh points. "Right" and "left" are the person's own: their right eye is on the image's left. */
export interface FaceLandmarks {
  rightEyeOuter: Point3;
  rightEyeInner: Point3;
  leftEyeInner: Point3;
  leftEyeOuter: Point3;
  rightEyeUpper: Point3;
  rightEyeLower: Point3;
  leftEyeUpper: Point3;
  leftEyeLower: Point3;
  rightBrowInner: Point3;
  leftBrowInner: Point3;
  noseBridge: Point3;
  noseTip: Point3;
  mouthRight: Point3;
  mouthLeft: Point3;
  chin: Point3;
  rightCheek: Point3;
  leftCheek: Point3;
}

/** Measured on the face box resampled to FACE_CROP_SIZE² luminance, so faces of any size compare. */
export interface FaceCropStats {
  /** 0–255. */
  meanLuminance: number;
  /** Variance of the Laplacian: low when the face is out of focus or motion-blurred. */
  sharpness: number;
  /** How strongly a thin line crosses the nose bridge, as a frame does (see face-pixels.models). */
  noseBridgeLineContrast: number;
}

export interface AnalysedFace {
  box: Box;
  /** Human's overall face confidence, 0–1. */
  score: number;
  detectionScore: number;
  meshScore: number;
  /** 468 mesh points, or 478 with the iris points (MediaPipe numbering). */
  mesh: Point3[];
  landmarks: FaceLandmarks;
  /** The 1024-number face descriptor (embedding); compare with descriptorSimilarity. */
  descriptor: number[];
  /** Radians. Yaw: head turned left/right; pitch: up/down; roll: tilted. */
  yaw: number;
  pitch: number;
  roll: number;
  /** Human's antispoof score, 0–1 (1: a real face, not a screen or print); only when asked for. */
  real?: number;
  /** Human's liveness score, 0–1; only when asked for. */
  live?: number;
  crop: FaceCropStats;
}

export interface ImageStats {
  /** The analysed size (what boxes and meshes refer to). */
  width: number;
  height: number;
  /** The photo's size as uploaded (EXIF orientation applied). */
  originalWidth: number;
  originalHeight: number;
  /** 0–255 over the whole photo. */
  meanLuminance: number;
}

export interface FaceAnalysis {
  image: ImageStats;
  /** Largest first. */
  faces: AnalysedFace[];
}
