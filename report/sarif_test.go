package report

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestSARIFSchema validates the SARIF log of every golden doc against the
// official SARIF 2.1.0 JSON schema (OASIS, errata 01; testdata/README.md says
// where the copy comes from), and checks that a racy run's result shows both
// conflicting accesses.
func TestSARIFSchema(t *testing.T) {
	f, err := os.Open("testdata/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	const url = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	// The schema has teeth: a line 0 and a misspelt property fail it.
	for _, bad := range []string{
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a.cu"}, "region": {"startLine": 0}}}]}]}]}`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "relatedLocation": []}]}]}`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {}}}]}`,
	} {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(bad)))
		if err != nil {
			t.Fatal(err)
		}
		if schema.Validate(inst) == nil {
			t.Errorf("the schema accepts a broken log: %s", bad)
		}
	}
	for name, d := range docs() {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteSARIF(&b, d); err != nil {
				t.Fatal(err)
			}
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if err := schema.Validate(inst); err != nil {
				t.Fatalf("the SARIF log does not validate: %v\n%s", err, b.String())
			}
			var log struct {
				Runs []struct {
					Results []struct {
						RuleID           string
						Locations        []json.RawMessage
						RelatedLocations []json.RawMessage
					}
				}
			}
			if err := json.Unmarshal(b.Bytes(), &log); err != nil {
				t.Fatal(err)
			}
			if len(log.Runs) != 1 || len(log.Runs[0].Results) != len(d.Result.Races) {
				t.Fatalf("want one run with %d results:\n%s", len(d.Result.Races), b.String())
			}
			for i, r := range log.Runs[0].Results {
				rc := d.Result.Races[i]
				if r.RuleID != "ldcheck/"+rc.Kind || len(r.Locations) != 1 {
					t.Errorf("result %d: rule %q, %d locations; want ldcheck/%s at one location", i, r.RuleID, len(r.Locations), rc.Kind)
				}
				if len(rc.Accesses) == 2 && len(r.RelatedLocations) != 1+len(rc.MorePairs) {
					t.Errorf("result %d: %d related locations, want the other access and %d more pairs", i, len(r.RelatedLocations), len(rc.MorePairs))
				}
			}
		})
	}
}
