package api

import (
	"encoding/json"
	"net/http"

	"example.com/m/store"
)

// Server serves users.
type Server struct {
	store.Store
	mux *http.ServeMux
}

type Getter[T any] interface{ Get(id string) (T, error) }

const prefix = "/api"

var DefaultServer = &Server{mux: http.NewServeMux()}

func (s *Server) Routes() {
	s.mux.HandleFunc(prefix+"/users/{id}", s.getUser)
	s.mux.Handle("/health", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
	}))
}

func (s *Server) getUser(w http.ResponseWriter, r *http.Request) {
	u, err := s.Get(r.PathValue("id"))
	switch v := any(u).(type) {
	case error:
		_ = v
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"id": u, "ok": true})
}

func init() { DefaultServer.Routes() }
func init() { go func() { defer recover() }() }
