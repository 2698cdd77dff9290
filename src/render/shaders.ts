/**
 * GLSL (WebGL 1) for the renderer. One procedural environment — a sky gradient over a warm ground
 * with a soft window light — lights everything, so the liquid's reflections match the backdrop.
 */

export const ENV_GLSL = /* glsl */ `
uniform vec3 lightDir;
vec3 environment(vec3 r) {
  float t = r.y;
  vec3 sky = mix(vec3(0.50, 0.56, 0.66), vec3(0.10, 0.15, 0.26), clamp(t * 1.4, 0.0, 1.0));
  vec3 ground = mix(vec3(0.26, 0.24, 0.23), vec3(0.07, 0.07, 0.08), clamp(-t * 3.0, 0.0, 1.0));
  vec3 c = t > 0.0 ? sky : ground;
  float window = max(dot(r, lightDir), 0.0);
  c += vec3(2.2, 2.1, 1.9) * pow(window, 90.0) + vec3(0.25) * pow(window, 6.0);
  return c;
}
vec3 toDisplay(vec3 c) {
  c = c / (1.0 + 0.25 * c); // soft shoulder so highlights do not clip hard
  return pow(max(c, 0.0), vec3(1.0 / 2.2));
}
`;

/**
 * The backdrop is the environment seen through the camera, evaluated per vertex of a coarse
 * screen grid: software WebGL (SwiftShader) is fill-rate bound, so the per-pixel work stays tiny.
 */
export const BACKGROUND_VERT = /* glsl */ `
precision highp float;
attribute vec2 corner;
uniform vec3 camRight, camUp, camForward;
uniform vec2 halfExtent; // tan(fov/2) * aspect, tan(fov/2)
varying vec3 color;
${ENV_GLSL}
void main() {
  vec3 dir = normalize(camForward + corner.x * halfExtent.x * camRight + corner.y * halfExtent.y * camUp);
  color = toDisplay(environment(dir) * 0.55);
  gl_Position = vec4(corner, 0.999, 1.0);
}
`;

export const BACKGROUND_FRAG = /* glsl */ `
precision mediump float;
varying vec3 color;
void main() { gl_FragColor = vec4(color, 1.0); }
`;

export const POINTS_VERT = /* glsl */ `
precision highp float;
attribute vec3 position;
attribute vec3 aux; // material index, surface flag, speed
uniform mat4 viewProjection;
uniform float radius, pixelScale, colorMode, speedScale;
uniform vec3 palette[8];
varying vec3 color;
vec3 ramp(float t) {
  t = clamp(t, 0.0, 1.0);
  return mix(mix(vec3(0.05, 0.15, 0.6), vec3(0.1, 0.7, 0.6), smoothstep(0.0, 0.5, t)), vec3(0.95, 0.3, 0.1), smoothstep(0.5, 1.0, t));
}
vec3 paletteAt(float m) {
  vec3 c = palette[0];
  for (int i = 1; i < 8; i++) if (abs(m - float(i)) < 0.5) c = palette[i];
  return c;
}
void main() {
  vec4 clip = viewProjection * vec4(position, 1.0);
  gl_Position = clip;
  gl_PointSize = max(2.0, 2.0 * radius * pixelScale / clip.w);
  if (colorMode < 0.5) color = paletteAt(aux.x);
  else if (colorMode < 1.5) color = aux.y > 0.5 ? vec3(0.95, 0.85, 0.2) : (aux.y < -0.5 ? vec3(0.5) : vec3(0.15, 0.3, 0.75));
  else color = ramp(aux.z * speedScale);
}
`;

export const POINTS_FRAG = /* glsl */ `
precision highp float;
varying vec3 color;
${ENV_GLSL}
void main() {
  vec2 q = gl_PointCoord * 2.0 - 1.0;
  float r2 = dot(q, q);
  if (r2 > 1.0) discard;
  vec3 n = vec3(q.x, -q.y, sqrt(1.0 - r2)); // sprite normal in view space (approximate)
  vec3 l = normalize(vec3(0.4, 0.7, 0.6));
  float diffuse = 0.35 + 0.75 * max(dot(n, l), 0.0);
  float spec = pow(max(dot(n, normalize(l + vec3(0.0, 0.0, 1.0))), 0.0), 40.0);
  gl_FragColor = vec4(toDisplay(color * diffuse + vec3(0.35) * spec), 1.0);
}
`;

export const SURFACE_VERT = /* glsl */ `
precision highp float;
attribute vec3 position, normal, color;
uniform mat4 viewProjection;
varying vec3 vPosition, vNormal, vColor;
void main() {
  vPosition = position;
  vNormal = normal;
  vColor = color;
  gl_Position = viewProjection * vec4(position, 1.0);
}
`;

/**
 * The honey / gel look: Fresnel-weighted environment reflection over a body colour that is
 * darker and more saturated where the liquid is thick (facing the eye) and glows where light
 * comes through thin edges from behind; a tight specular highlight; alpha rises with Fresnel.
 */
export const SURFACE_FRAG = /* glsl */ `
precision highp float;
uniform vec3 eye, baseColor;
uniform float useVertexColor, opacity;
varying vec3 vPosition, vNormal, vColor;
${ENV_GLSL}
void main() {
  vec3 N = normalize(vNormal);
  vec3 V = normalize(eye - vPosition);
  if (!gl_FrontFacing) N = -N;
  if (dot(N, V) < 0.0) N = normalize(N - 1.01 * dot(N, V) * V); // normals pointing away at silhouettes
  float ndv = clamp(dot(N, V), 0.0, 1.0);
  vec3 base = useVertexColor > 0.5 ? vColor : baseColor;
  vec3 thick = pow(max(base, 0.001), vec3(0.85 + 0.6 * ndv));
  float wrap = dot(N, lightDir) * 0.5 + 0.5;
  vec3 body = thick * (0.30 + 0.95 * wrap);
  float backlight = pow(clamp(dot(-V, lightDir), 0.0, 1.0), 3.0) * (1.0 - ndv);
  body += base * 1.4 * backlight;
  float F = 0.04 + 0.96 * pow(1.0 - ndv, 5.0);
  vec3 R = reflect(-V, N);
  vec3 c = mix(body, environment(R), F);
  c += vec3(1.6) * pow(max(dot(N, normalize(lightDir + V)), 0.0), 120.0);
  gl_FragColor = vec4(toDisplay(c), mix(opacity, 1.0, F));
}
`;

/**
 * Solids are lit per vertex (Gouraud): they are props next to the liquid, and on software WebGL
 * a large floor plane shaded per pixel would cost more than the liquid itself.
 */
export const SOLID_VERT = /* glsl */ `
precision highp float;
attribute vec3 position, normal;
uniform mat4 viewProjection, model;
uniform mat3 rotation;
uniform vec3 eye, baseColor;
varying vec3 color;
${ENV_GLSL}
void main() {
  vec4 world = model * vec4(position, 1.0);
  vec3 N = normalize(rotation * normal);
  vec3 V = normalize(eye - world.xyz);
  if (dot(N, V) < 0.0) N = -N; // seen from inside (an open cup) or from below (a plane)
  float ndv = clamp(dot(N, V), 0.0, 1.0);
  float diffuse = max(dot(N, lightDir), 0.0);
  vec3 c = baseColor * (environment(N) * 0.45 + 0.8 * diffuse);
  c = mix(c, environment(reflect(-V, N)), 0.04 + 0.5 * pow(1.0 - ndv, 5.0));
  c += vec3(0.4) * pow(max(dot(N, normalize(lightDir + V)), 0.0), 24.0);
  color = toDisplay(c);
  gl_Position = viewProjection * world;
}
`;

export const SOLID_FRAG = /* glsl */ `
precision mediump float;
varying vec3 color;
void main() { gl_FragColor = vec4(color, 1.0); }
`;

export const LINES_VERT = /* glsl */ `
precision highp float;
attribute vec3 position;
uniform mat4 viewProjection;
void main() { gl_Position = viewProjection * vec4(position, 1.0); }
`;

export const LINES_FRAG = /* glsl */ `
precision highp float;
uniform vec4 color;
void main() { gl_FragColor = color; }
`;

/**
 * Smoke density splats: each smoke cell is a soft Gaussian sprite about two cells across, its
 * opacity rising with the density (1 − e^(−k ρ)); the tone brightens a little with density.
 */
export const SMOKE_VERT = /* glsl */ `
precision highp float;
attribute vec3 position;
attribute float density;
uniform mat4 viewProjection;
uniform float size, pixelScale;
varying float alpha;
varying float tone;
void main() {
  vec4 clip = viewProjection * vec4(position, 1.0);
  gl_Position = clip;
  gl_PointSize = clamp(2.2 * size * pixelScale / clip.w, 2.0, 256.0);
  float d = max(density, 0.0);
  alpha = 1.0 - exp(-1.6 * d);
  tone = 0.78 + 0.17 * clamp(d, 0.0, 1.0);
}
`;

export const SMOKE_FRAG = /* glsl */ `
precision mediump float;
varying float alpha;
varying float tone;
void main() {
  vec2 q = gl_PointCoord * 2.0 - 1.0;
  float r2 = dot(q, q);
  if (r2 > 1.0) discard;
  float a = alpha * exp(-3.0 * r2) * 0.9;
  gl_FragColor = vec4(vec3(tone), a);
}
`;
