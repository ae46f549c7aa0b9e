// Package reshuffle plans memory-capped checking (LDetector section 4.5,
// warp reshuffling): from the number of units and the room for private
// copies it chooses groups and rounds, and gives equation (1)'s probability
// of having found a race after k rounds.
//
// It is pure arithmetic: no device, no files.
package reshuffle
